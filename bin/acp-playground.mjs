#!/usr/bin/env node
// The headless CLI: same lib/ and server/ code as the playground (TypeScript, loaded through tsx).
import { register } from "tsx/esm/api";

register();
if (process.argv[2] === "tap") {
  // The tap stands in for an agent: load only what it needs, so the editor's agent starts sooner.
  const { tapMain } = await import("../server/tap-cli.ts");
  tapMain(process.argv.slice(3)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`acp-playground tap: ${err.message}\n`);
      process.exit(1);
    },
  );
} else {
  await import("../server/cli.ts");
}
