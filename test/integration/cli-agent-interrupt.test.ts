/**
 * A command that runs an agent (probe, record, replay, compare), interrupted (Ctrl-C, SIGTERM) while
 * the agent starts: it leaves none of its throw-away folders (/tmp/acp-probe-*, acp-record-*, ...)
 * behind and ends by the signal, as an interrupted command does.
 */
import { execa } from "execa";
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SilentAgents } from "../silent-agent";
import { initializeRecording } from "../transcripts";

const bin = path.resolve(import.meta.dirname, "../../bin/acp-playground.mjs");

let base: string;
const agents = new SilentAgents();

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-cli-agent-interrupt-")));
});
afterAll(() => {
  agents.stopAll();
  rmSync(base, { recursive: true, force: true });
});

const COMMANDS = [
  { name: "probe", args: ["probe", "--profile", "silent"], signal: "SIGINT", folders: 1, agents: 1 },
  { name: "probe", args: ["probe", "--profile", "silent"], signal: "SIGTERM", folders: 1, agents: 1 },
  {
    name: "record",
    args: ["record", "--profile", "silent", "--prompt", "hi", "-o", "out.jsonl"],
    signal: "SIGINT",
    folders: 1,
    agents: 1,
  },
  { name: "replay", args: ["replay", "t.jsonl", "--profile", "silent"], signal: "SIGTERM", folders: 1, agents: 1 },
  // A data folder and a workspace per side.
  {
    name: "compare",
    args: ["compare", "--profile", "silent", "--prompt", "hi"],
    signal: "SIGINT",
    folders: 3,
    agents: 2,
  },
] as const;

/** The commands' throw-away folders. */
const folders = (tmp: string) => readdirSync(tmp).filter((f) => f.startsWith("acp-"));

describe("a command that runs an agent, interrupted", () => {
  for (const { name, args, signal, folders: held, agents: count } of COMMANDS) {
    it(`${name}, by ${signal}, leaves none of its folders and ends by the signal`, async () => {
      const dir = mkdtempSync(path.join(base, `${name}-${signal}-`));
      // To replay: its initialize the agent never answers.
      writeFileSync(path.join(dir, "t.jsonl"), initializeRecording({ agent: { profile: "silent" } }));
      // The CLI's own temporary folder, so that only its leftovers are counted.
      const tmp = mkdtempSync(path.join(dir, "tmp-"));
      const pidFile = agents.configIn(dir);
      const cli = execa(process.execPath, [bin, ...args], {
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
      // The agent (each side's, for compare) started, waiting to be answered.
      const deadline = Date.now() + 45_000;
      while (agents.started(pidFile).length < count && Date.now() < deadline && cli.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(folders(tmp), `${name} under way`).toHaveLength(held);
      cli.kill(signal);
      const end = await cli;
      expect(end.signal, end.stderr).toBe(signal);
      expect(folders(tmp)).toEqual([]);
      // Their stdin closed with the command: each ends, and writes nothing after the test.
      await agents.ended(pidFile);
    }, 60_000);
  }
});
