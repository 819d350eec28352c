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

describe("transcript recorder: exact lines", () => {
  const record = (build: (recorder: TranscriptRecorder, seq: FrameSequencer) => void, secrets: string[] = []) => {
    const dir = mkdtempSync(path.join(tmpdir(), "acp-rec-"));
    dirs.push(dir);
    const st = new TranscriptStore(dir, {});
    const recorder = new TranscriptRecorder(st, agent, secrets, "session", 1_000_000);
    build(recorder, new FrameSequencer({ wall: () => 2_000_000, mono: () => 0 }));
    recorder.close();
    return parseTranscript(readFileSync(st.file(recorder.id), "utf8"));
  };

  it("keeps a CR, and the bytes of a line that is not UTF-8, flagged invalid", () => {
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x7d]);
    const t = record((recorder, seq) => {
      recorder.frame(seq.line("from-agent", '{"jsonrpc":"2.0","method":"x"}\r'));
      recorder.frame(seq.line("from-agent", bytes.toString("utf8"), bytes.toString("base64")));
    });
    expect(t.header.version).toBe("1.2");
    expect(t.frames[0]).toMatchObject({ raw: '{"jsonrpc":"2.0","method":"x"}\r', kind: "notification" });
    expect(t.frames[1]).toMatchObject({ kind: "invalid", raw: "{\uFFFD\uFFFD\uFFFD}", rawBase64: "e//+w30=" });
    expect(t.frames[1]!.error).toMatch(/not valid UTF-8/);
    expect(Buffer.from(t.frames[1]!.rawBase64!, "base64")).toEqual(bytes);
  });

  it("redacts a secret in the kept bytes too, leaving the other bytes as they were", () => {
    const secret = "sk-abcdefghijklmnopqrstuvwx";
    const bytes = Buffer.concat([Buffer.from(`{"text":"${secret} `), Buffer.from([0xff]), Buffer.from('"}')]);
    const t = record((recorder, seq) =>
      recorder.frame(seq.line("from-agent", bytes.toString("utf8"), bytes.toString("base64"))),
    );
    const kept = Buffer.from(t.frames[0]!.rawBase64!, "base64");
    expect(kept.toString("latin1")).not.toContain(secret);
    expect(kept.toString("latin1")).toContain("[REDACTED]");
    expect(kept.includes(0xff)).toBe(true);
  });

  it("redacts a secret cut in two stderr chunks, in a lifecycle message, and in the header's command line", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "acp-rec-"));
    dirs.push(dir);
    const st = new TranscriptStore(dir, {});
    const secret = "hunter2hunter2";
    const recorder = new TranscriptRecorder(
      st,
      { ...agent, args: ["--api-key", "abcdefghijk12345", `--token=${secret}`, "--verbose"] },
      [secret],
    );
    recorder.stderr(1, "starting\nkey is hunter2h");
    recorder.stderr(2, "unter2, ok\nno end yet: ");
    recorder.stderr(3, `${secret.slice(0, 5)}`);
    recorder.stderr(4, `${secret.slice(5)} done`);
    recorder.lifecycle({ event: "transport", message: "redirect to https://x.example/cb?access_token=abcdef1234567" });
    recorder.stderr(5, "last, unfinished");
    recorder.close();
    const text = readFileSync(st.file(recorder.id), "utf8");
    for (const leaked of ["hunter2h", "unter2unter2", "abcdefghijk12345", "abcdef1234567"])
      expect(text).not.toContain(leaked);
    const t = parseTranscript(text);
    expect(t.header.agent.args).toEqual(["--api-key", "[REDACTED]", "--token=[REDACTED]", "--verbose"]);
    const stderr = t.events.filter((e) => e.type === "stderr").map((e) => (e as { text: string }).text);
    // Whole lines; an unfinished one before what came after it.
    expect(stderr).toEqual([
      "starting\n",
      "key is [REDACTED], ok\n",
      "no end yet: [REDACTED] done",
      "last, unfinished",
    ]);
    expect(t.events.map((e) => e.type)).toEqual(["stderr", "stderr", "stderr", "lifecycle", "stderr"]);
  });

  it("starts at the agent's start and never stamps a line earlier than the one before it", () => {
    const t = record((recorder, seq) => {
      recorder.lifecycle({ event: "spawned", pid: 1 }, 1_000_000);
      recorder.frame({ ...seq.line("to-agent", "{}"), ts: 999_000 });
      recorder.stderr(1_500_000, "x");
      recorder.frame({ ...seq.line("from-agent", "{}"), ts: 1_400_000 });
    });
    expect(t.header.createdAt).toBe(new Date(1_000_000).toISOString());
    expect(t.events.map((e) => e.ts)).toEqual([1_000_000, 1_000_000, 1_500_000, 1_500_000]);
  });
});

describe("transcript recorder: turns", () => {
  it("counts the protocol's turn requests: turn/start for the app-server, as the store's rescan does", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "acp-rec-"));
    dirs.push(dir);
    const st = new TranscriptStore(dir, {});
    const recorder = new TranscriptRecorder(st, { ...agent, protocol: "codex-app-server" }, []);
    const seq = new FrameSequencer(undefined, "codex-app-server");
    const lines = [
      '{"id":1,"method":"thread/start","params":{}}',
      '{"id":2,"method":"turn/start","params":{"threadId":"t","input":[]}}',
      '{"id":3,"method":"session/prompt","params":{}}',
      '{"id":4,"method":"turn/start","params":{"threadId":"t","input":[]}}',
    ];
    for (const line of lines) recorder.frame(seq.line("to-agent", line));
    recorder.lifecycle({ event: "exited", code: 0, signal: null });
    recorder.close();
    expect(st.meta(recorder.id)).toMatchObject({ turns: 2, protocol: "codex-app-server" });
    rmSync(path.join(dir, "transcripts", `${recorder.id}.meta.json`));
    expect(new TranscriptStore(dir, {}).meta(recorder.id)).toMatchObject({ turns: 2, protocol: "codex-app-server" });
  });
});
