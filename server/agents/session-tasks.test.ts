/**
 * probeAgent with a real stdio agent (the stub in "shell" mode asks the client
 * to run `sh -c 'id > FILE'` in every turn): terminals are opt-in end to end.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_CLIENT_CAPABILITIES } from "../../lib/protocol/client-capabilities";
import { probeAgent, rerunTranscript } from "./session-tasks";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import type { TranscriptHeader } from "../../lib/contracts/transcript";
import { testHost } from "../../test/host-harness";

const stub = path.resolve(import.meta.dirname, "../../test/fixtures/stub-agent.mjs");
const base = realpathSync(mkdtempSync(path.join(tmpdir(), "session-tasks-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function session(file: string) {
  return testHost(base, { shell: { command: process.execPath, args: [stub, "shell", `id > ${file}`], env: {} } }).host;
}

describe("probeAgent and terminals", () => {
  it("by default does not run the agent's command; opted in, runs it and the report says what ran", async () => {
    const refused = path.join(base, "default");
    const s1 = session(refused);
    const before = s1.answerer.current;
    const off = await probeAgent(s1, { profile: "shell" }, { clientCapabilities: { ...DEFAULT_CLIENT_CAPABILITIES } });
    expect(off.ok).toBe(true);
    expect(existsSync(refused)).toBe(false);
    const offReport = off.ok ? off.report : undefined;
    expect(offReport?.facts?.commands).toEqual([]);
    expect(offReport?.rows.find((r) => r.check === "terminal commands run by the probe")?.detail).toMatch(
      /^terminals off: not opted in, ran none, refused \d/,
    );
    // The session's own policies come back after the probe's.
    expect(s1.answerer.current).toEqual(before);

    const ran = path.join(base, "opted-in");
    const on = await probeAgent(
      session(ran),
      { profile: "shell" },
      { clientCapabilities: { ...DEFAULT_CLIENT_CAPABILITIES }, terminals: true },
    );
    expect(on.ok).toBe(true);
    expect(existsSync(ran)).toBe(true);
    expect(on.ok && on.report.facts?.commands?.[0]).toBe(`sh -c 'id > ${ran}'`);
  });
});

describe("rerunTranscript and the working-directory rule", () => {
  it("never sends a recorded request that names a place outside the roots", async () => {
    const s = new FrameSequencer();
    const frames = [
      s.line(
        "to-agent",
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "session/new",
          params: { cwd: "/old", mcpServers: [], _meta: { additionalRoots: ["/etc"] } },
        }),
      ),
      s.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: 1, result: { sessionId: "s" } })),
    ];
    const recorded = {
      header: { agent: { profile: "echo", command: "x", args: [], cwd: "/old" } } as unknown as TranscriptHeader,
      events: [],
      frames,
      truncated: false,
      redactions: 0,
    };
    const { host } = testHost(base, { echo: { command: process.execPath, args: [stub, "echo"], env: {} } });
    const sent: string[] = [];
    host.onFrame((f) => f.dir === "to-agent" && sent.push(f.method ?? ""));
    const result = await rerunTranscript(host, recorded, { profile: "echo" });
    expect(result.ok && result.problems).toEqual([
      expect.stringMatching(
        /^session\/new .*session\/new's _meta\.additionalRoots entry is outside the workspace roots: \/etc /,
      ),
    ]);
    expect(sent).not.toContain("session/new");
  });
});
