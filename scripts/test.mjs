// `npm test`: the static checks, the unit and integration tests and the production build run at
// once, then the e2e tests against that build. One after another, the checks and the build each
// left one of CI's two cores idle for about two minutes. Vitest's output streams; the checks' and the
// build's are printed once they end, each under its own heading.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

/** Runs a command; `quiet` keeps its output to print later. Resolves with its exit code and output. */
function run(name, command, args, { quiet = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    const output = [];
    child.stdout?.on("data", (d) => output.push(d));
    child.stderr?.on("data", (d) => output.push(d));
    child.on("error", (err) => output.push(Buffer.from(`${name}: ${err.message}\n`)));
    child.on("close", (code, signal) =>
      resolve({ name, ok: code === 0, code: code ?? signal, seconds: (Date.now() - started) / 1000, output }),
    );
  });
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const first = await Promise.all([
  run("check (typecheck, lint, format)", npm, ["run", "--silent", "check"], { quiet: true }),
  run("production build", process.execPath, ["scripts/ensure-build.mjs"], { quiet: true }),
  run("unit and integration tests", npm, ["run", "--silent", "test:unit"]),
]);
for (const step of first.filter((s) => s.output.length)) {
  process.stdout.write(`\n== ${step.name}: ${step.ok ? "ok" : `failed (${step.code})`}, ${step.seconds} s\n`);
  process.stdout.write(Buffer.concat(step.output));
}
const failed = first.filter((s) => !s.ok);
for (const s of first) console.log(`== ${s.name}: ${s.ok ? "ok" : "FAILED"} in ${s.seconds} s`);
if (failed.length) process.exit(1);

const e2e = await run("e2e tests", process.execPath, ["node_modules/@playwright/test/cli.js", "test"]);
console.log(`== e2e tests: ${e2e.ok ? "ok" : "FAILED"} in ${e2e.seconds} s`);
process.exit(e2e.ok ? 0 : 1);
