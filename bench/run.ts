/**
 * `npm run bench`: runs every benchmark in turn, each in its own process, and
 * prints its JSON result. `npm run bench -- relay-overhead --rate 500` runs one,
 * with its flags.
 */
import { execa } from "execa";
import path from "node:path";

const BENCHMARKS = [
  "relay-overhead",
  "session-start",
  "concurrency",
  "browser",
  "transcript-load",
  "export",
  "tap",
  "library",
  "library-pg",
  "pg-save",
  "otel-export",
  "watch",
  "team-recording",
];
const [only, ...flags] = process.argv.slice(2);
if (only && !BENCHMARKS.includes(only)) {
  console.error(`unknown benchmark ${only}; one of: ${BENCHMARKS.join(", ")}`);
  process.exit(2);
}
let failed = false;
for (const name of only ? [only] : BENCHMARKS) {
  console.error(`== ${name}`);
  const run = await execa(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, `${name}.ts`), ...flags],
    {
      reject: false,
      stdout: "inherit",
      stderr: "inherit",
      env: { NEXT_TELEMETRY_DISABLED: "1" },
    },
  );
  if (run.exitCode !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
