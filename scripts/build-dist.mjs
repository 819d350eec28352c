// Compiles the CLI and server into dist/ (run by `npm pack` through prepack), so
// the installed tool runs JavaScript, not TypeScript compiled at start by tsx.
// Dependencies stay imports (resolved from the installed package's node_modules).
import { build } from "esbuild";
import { rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "dist");
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  // cli: every command; cli-usage: --help alone; tap-cli: the tap alone, so an editor's agent starts sooner; replay-agent: its own process.
  entryPoints: {
    cli: "server/cli/cli.ts",
    "cli-usage": "server/cli/cli-usage.ts",
    "tap-cli": "server/cli/tap-cli.ts",
    "replay-agent": "server/agents/replay-agent.ts",
    // The search index's worker thread (server/transcripts/library-index.ts).
    "index-worker": "server/transcripts/index-worker.ts",
    // The database copy's worker thread (server/stores/pg-mirror.ts).
    "pg-copy-worker": "server/stores/pg-copy-worker.ts",
  },
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  // Chunks: a dynamic import (serve's Next.js, a command's modules) loads only when that command runs.
  splitting: true,
  // In dist/ itself: modules find the package root one level up (server/runtime.ts).
  chunkNames: "[name]-[hash]",
  logLevel: "warning",
});
console.log("dist/: cli.mjs, tap-cli.mjs, replay-agent.mjs, index-worker.mjs, pg-copy-worker.mjs");
