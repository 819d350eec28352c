/**
 * The doctor's check (POST /api/profiles/:name/check) in a relay ended by SIGINT or SIGTERM while
 * it waits on the agent: the relay's shutdown ends the process (app-server.ts exitOnSignals) before
 * the check is done, and the check's throw-away workspace (/tmp/acp-doctor-*) goes with it.
 */
import { execa } from "execa";
import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SilentAgents } from "../silent-agent";

const root = path.resolve(import.meta.dirname, "../..");
let base: string;
const agents = new SilentAgents();

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-doctor-interrupt-")));
});
afterAll(() => {
  agents.stopAll();
  rmSync(base, { recursive: true, force: true });
});

/** The relay's part: its shutdown on the signal, then a check of the profile `silent`. */
const relay = (dir: string) => `
  const { loadConfig } = await import(${JSON.stringify(path.join(root, "server/config.ts"))});
  const { Profiles } = await import(${JSON.stringify(path.join(root, "server/agents/profiles.ts"))});
  const { TranscriptStore } = await import(${JSON.stringify(path.join(root, "server/transcripts/transcript-store.ts"))});
  const { checkProfile } = await import(${JSON.stringify(path.join(root, "server/agents/doctor-check.ts"))});
  const { exitOnSignals } = await import(${JSON.stringify(path.join(root, "server/http/app-server.ts"))});
  exitOnSignals({ close: async () => {} });
  const config = { ...loadConfig(process.env, ${JSON.stringify(dir)}), dataDir: ${JSON.stringify(path.join(dir, "data"))} };
  await checkProfile(new Profiles(config, new TranscriptStore(config.dataDir)), config, "silent", 60_000);
`;

describe("a doctor's check in a relay that is stopped", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`by ${signal} leaves no acp-doctor-* workspace`, async () => {
      const dir = mkdtempSync(path.join(base, `${signal}-`));
      const tmp = mkdtempSync(path.join(dir, "tmp-"));
      const pidFile = agents.configIn(dir);
      const run = execa(process.execPath, ["--import", "tsx", "--input-type=module", "-e", relay(dir)], {
        cwd: root,
        reject: false,
        timeout: 60_000,
        env: { HOME: dir, TMPDIR: tmp, ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json") },
      });
      const deadline = Date.now() + 45_000;
      while (agents.started(pidFile).length < 1 && Date.now() < deadline && run.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const workspaces = () => readdirSync(tmp).filter((f) => f.startsWith("acp-doctor-"));
      expect(workspaces(), "the check under way").toHaveLength(1);
      run.kill(signal);
      const end = await run;
      expect(end.exitCode, end.stderr).toBe(0);
      expect(workspaces()).toEqual([]);
      await agents.ended(pidFile);
    }, 60_000);
  }
});
