/**
 * `probe` interrupted (Ctrl-C, SIGTERM) while the agent is being probed: it leaves no throw-away
 * workspace (/tmp/acp-probe-*) behind and ends by the signal, as an interrupted command does.
 */
import { execa } from "execa";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../../bin/acp-playground.mjs");

let base: string;
/** Pid files of the agents started: each is stopped after, whatever the test did. */
const pidFiles: string[] = [];

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-probe-interrupt-")));
});
afterAll(() => {
  for (const file of pidFiles) {
    if (!existsSync(file)) continue;
    try {
      process.kill(Number(readFileSync(file, "utf8")), "SIGKILL");
    } catch {
      // gone already (it ends when its stdin closes)
    }
  }
  rmSync(base, { recursive: true, force: true });
});

const workspaces = (tmp: string) => readdirSync(tmp).filter((f) => f.startsWith("acp-probe-"));

describe("a probe interrupted", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`by ${signal} leaves no acp-probe-* workspace and ends by the signal`, async () => {
      const dir = mkdtempSync(path.join(base, `${signal}-`));
      // The CLI's own temporary folder, so that only its leftovers are counted.
      const tmp = mkdtempSync(path.join(dir, "tmp-"));
      const pidFile = path.join(dir, "agent.pid");
      pidFiles.push(pidFile);
      // An agent that never answers initialize (the probe waits on it) and ends when its stdin closes.
      const agent = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
        process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`;
      writeFileSync(
        path.join(dir, "config.json"),
        JSON.stringify({ profiles: { silent: { command: process.execPath, args: ["-e", agent] } } }),
      );
      const cli = execa(process.execPath, [bin, "probe", "--profile", "silent"], {
        cwd: dir,
        reject: false,
        timeout: 60_000,
        env: {
          HOME: dir,
          TMPDIR: tmp,
          ACP_PLAYGROUND_DATA: path.join(dir, "data"),
          ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json"),
          NEXT_TELEMETRY_DISABLED: "1",
        },
      });
      // The agent started in its workspace, waiting to be answered.
      const deadline = Date.now() + 45_000;
      while (!existsSync(pidFile) && Date.now() < deadline && cli.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(workspaces(tmp), "the probe under way").toHaveLength(1);
      cli.kill(signal);
      const end = await cli;
      expect(end.signal, end.stderr).toBe(signal);
      expect(workspaces(tmp)).toEqual([]);
    }, 60_000);
  }
});
