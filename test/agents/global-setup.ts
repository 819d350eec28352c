/** vitest globalSetup: the pinned third-party agents are installed before any test runs. */
import { execFileSync } from "node:child_process";
import path from "node:path";

export default function setup(): void {
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, "../../scripts/ensure-agents.mjs")], {
    stdio: "inherit",
  });
}
