#!/usr/bin/env node
// The CLI: the compiled dist/ in an installed package (built at pack time by
// scripts/build-dist.mjs), else the repository's TypeScript through tsx. A checkout
// runs its sources even while `npm pack` has a dist/ beside them for a moment.
import { existsSync } from "node:fs";

const compiled = !existsSync(new URL("../server/cli/cli.ts", import.meta.url));
if (!compiled) (await import("tsx/esm/api")).register();
// dist/ bundles are named after their source module in server/ (scripts/build-dist.mjs).
const SOURCES = { cli: "cli/cli", "cli-usage": "cli/cli-usage", "tap-cli": "cli/tap-cli" };
const source = (name) => (compiled ? `../dist/${name}.mjs` : `../server/${SOURCES[name]}.ts`);
const command = process.argv[2];
// Every command answers --help / -h (before any `--`) without starting anything.
const help = (await import(source("cli-usage"))).helpFor(process.argv.slice(2));
if (help !== undefined) {
  process.stdout.write(`${help}\n`);
} else if (command === "tap") {
  // The tap stands in for an agent: load only what it needs, so the editor's agent starts sooner.
  const { tapMain } = await import(source("tap-cli"));
  tapMain(process.argv.slice(3)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`acp-playground tap: ${err.message}\n`);
      process.exit(1);
    },
  );
} else {
  await import(source("cli"));
}
