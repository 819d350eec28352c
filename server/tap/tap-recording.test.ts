import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseTranscript } from "../../lib/contracts/transcript";
import { TranscriptStore } from "../transcripts/transcript-store";
import { TapRecording } from "./tap-recording";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const open = { profile: "p", command: "c", args: [], cwd: "/", pid: 42 };

function record(startedAt: number | undefined, apply: (r: TapRecording) => void) {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-taprec-"));
  dirs.push(dir);
  const store = new TranscriptStore(dir, {});
  const recording = new TapRecording(store, { ...open, startedAt }, 1024, []);
  apply(recording);
  recording.close();
  return parseTranscript(store.read(recording.id)!);
}

describe("TapRecording", () => {
  it("starts the transcript when the tap started the agent, not when the tap reached the relay", () => {
    const spawned = Date.now() - 600;
    const t = record(spawned, (r) => {
      r.apply({ t: "line", ts: spawned + 3.4, dir: "to-agent", raw: '{"jsonrpc":"2.0","id":1,"method":"initialize"}' });
      r.apply({ t: "line", ts: spawned + 50, dir: "from-agent", raw: '{"jsonrpc":"2.0","id":1,"result":{}}' });
      r.apply({ t: "exit", ts: spawned + 60, code: 0, signal: null });
    });
    expect(Date.parse(t.header.createdAt)).toBe(spawned);
    expect(t.events.map((e) => [e.type, e.ts])).toEqual([
      ["lifecycle", spawned],
      ["frame", spawned + 3],
      ["frame", spawned + 50],
      ["agent-info", spawned + 50],
      ["lifecycle", spawned + 60],
    ]);
  });

  it("never stamps a line before the one above it, whatever the tap's clock says", () => {
    const t = record(Date.now() + 60_000, (r) => {
      r.apply({ t: "line", ts: 5, dir: "to-agent", raw: "{}" });
      r.apply({ t: "stderr", ts: 1, text: "x" });
    });
    const stamps = [Date.parse(t.header.createdAt), ...t.events.map((e) => e.ts)];
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    expect(Date.parse(t.header.createdAt)).toBeLessThanOrEqual(Date.now());
  });

  it("records a line that is not UTF-8 as an invalid frame with its bytes", () => {
    const bytes = Buffer.from([0x7b, 0xff, 0x7d]);
    const t = record(undefined, (r) =>
      r.apply({ t: "line", ts: Date.now(), dir: "from-agent", raw: "{\uFFFD}", base64: bytes.toString("base64") }),
    );
    expect(t.frames[0]).toMatchObject({ kind: "invalid", rawBase64: "e/99" });
  });
});
