// Runs `next build` when there is no production build or a source file is newer
// than it, so `npm start` works on a fresh clone and after a pull.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const marker = path.join(root, ".next", "BUILD_ID");
const sources = ["app", "components", "lib", "public", "next.config.mjs", "postcss.config.mjs", "package-lock.json"];

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(p).map((e) => newest(path.join(p, e))));
}

const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
const changed = Math.max(...sources.map((s) => newest(path.join(root, s))));
if (built === 0 || changed > built) {
  console.log(built === 0 ? "No production build yet: building..." : "Sources changed: rebuilding...");
  execFileSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

// The one-file export's viewer (server/transcripts/export.ts) is built beside it, so the first export does
// not wait for a bundle: viewerAssets() rebuilds it only when it is missing or older than its sources.
execFileSync(
  process.execPath,
  ["--import", "tsx", "-e", 'await (await import("./server/transcripts/export.ts")).viewerAssets()'],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  },
);
