// Installs the third-party ACP agents the integration tests run (test/agents, pinned by its
// package-lock.json) when they are missing or package.json / the lock changed since the last install.
// Kept out of the root package.json so the playground's own dependencies stay lean.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dir = path.resolve(import.meta.dirname, "..", "test", "agents");
const stamp = path.join(dir, "node_modules", ".installed-lock-sha256");

export function ensureAgents({ quiet = false } = {}) {
  const lock = createHash("sha256")
    .update(readFileSync(path.join(dir, "package.json")))
    .update(readFileSync(path.join(dir, "package-lock.json")))
    .digest("hex");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === lock) return false;
  if (!quiet) console.log("Installing the test agents (test/agents)...");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  // Not `npm ci`: Qwen Code 0.24 names optional platform packages (@teddyzhu/clipboard-*) that the
  // registry answers 404 for, so they are absent from the lock and `npm ci` refuses it as out of
  // sync. `npm install --no-save` installs exactly the locked tree and never rewrites the lock.
  // Qwen Code declares node >= 22 but runs on Node 20: never let engine-strict refuse it.
  execFileSync(
    npm,
    ["install", "--no-save", "--prefix", dir, "--no-audit", "--no-fund", "--engine-strict=false", "--loglevel=error"],
    { stdio: quiet ? "ignore" : "inherit" },
  );
  writeFileSync(stamp, lock);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) ensureAgents();
