import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import { parseTranscript } from "../../lib/contracts/transcript";
import { transcriptLimits } from "../config";
import { TranscriptRecorder } from "./transcript-recorder";
import { TranscriptStore } from "./transcript-store";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const agent = { profile: "p", command: "c", args: [], cwd: "/" };
const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe("transcript recorder: per-file cap", () => {
  it("stops writing at the cap with a last line saying where and why; the transcript still parses", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "acp-rec-"));
    dirs.push(dir);
    const cap = 8192;
    const st = new TranscriptStore(dir, {}, { ...transcriptLimits({}), fileBytes: cap });
    const recorder = new TranscriptRecorder(st, agent, []);
    const seq = new FrameSequencer();
    for (let i = 0; i < 200; i++) {
      const line = JSON.stringify({
        jsonrpc: "2.0",
        method: "session/update",
        params: { n: i, text: "x".repeat(100) },
      });
      recorder.frame(seq.line("from-agent", line));
      if (i % 50 === 0) recorder.stderr(Date.now(), "y".repeat(200));
      await flushed();
    }
    recorder.lifecycle({ event: "exited", code: 0, signal: null });
    recorder.close();

    const text = readFileSync(st.file(recorder.id), "utf8");
    const t = parseTranscript(text);
    const last = t.events.at(-1)!;
    expect(last).toMatchObject({ type: "lifecycle", event: "capped" });
    expect((last as { message: string }).message).toMatch(
      new RegExp(`recording stopped at frame seq ${t.frames.length + 1}: .*cap of ${cap} bytes`),
    );
    expect(t.events.filter((e) => e.type === "lifecycle" && e.event === "exited")).toEqual([]);
    expect(
      statSync(st.file(recorder.id)).size - Buffer.byteLength(text.slice(text.lastIndexOf("\n", text.length - 2) + 1)),
    ).toBeLessThanOrEqual(cap);
    expect(st.meta(recorder.id)).toMatchObject({
      frames: t.frames.length,
      recording: false,
      bytes: Buffer.byteLength(text),
    });
  });
});

describe("transcript recorder: what the user does while it records", () => {
  it("keeps a rename, a share and a comparison's tag made during the recording when it closes", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "acp-rec-"));
    dirs.push(dir);
    const st = new TranscriptStore(dir, {}, transcriptLimits({}));
    const recorder = new TranscriptRecorder(st, agent, []);
    st.rename(recorder.id, "Kept");
    const token = st.share(recorder.id)!.shareToken;
    st.tag(recorder.id, "compare");
    recorder.close();
    expect(st.meta(recorder.id)).toMatchObject({
      title: "Kept",
      renamed: true,
      shareToken: token,
      kind: "compare",
      recording: false,
    });
  });
});
