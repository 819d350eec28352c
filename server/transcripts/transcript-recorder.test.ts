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

describe("transcript recorder: a turn's frames are queued and written with the turn", () => {
  const open = (fileBytes?: number) => {
    const dir = mkdtempSync(path.join(tmpdir(), "acp-rec-"));
    dirs.push(dir);
    const limits = transcriptLimits({});
    const st = new TranscriptStore(dir, {}, fileBytes ? { ...limits, fileBytes } : limits);
    const recorder = new TranscriptRecorder(st, agent, ["sk-abcdefghijklmnopqrstuvwx"]);
    const text = () => readFileSync(st.file(recorder.id), "utf8");
    return { st, recorder, text, seq: new FrameSequencer() };
  };
  const update = (n: number) => JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { n } });

  it("writes nothing before the turn ends, then every line in the order it came, frames redacted", async () => {
    const { recorder, text, seq, st } = open();
    const header = text();
    recorder.frame(seq.line("from-agent", update(1)));
    recorder.frame(
      seq.line("from-agent", '{"jsonrpc":"2.0","method":"x","params":{"k":"sk-abcdefghijklmnopqrstuvwx"}}'),
    );
    recorder.stderr(Date.now(), "between");
    recorder.frame(seq.line("from-agent", update(3)));
    recorder.lifecycle({ event: "stopping" });
    recorder.frame(seq.line("to-agent", update(4)));
    expect(text()).toBe(header);
    await flushed();
    const t = parseTranscript(text());
    expect(t.events.map((e) => (e.type === "frame" ? e.seq : e.type))).toEqual([1, 2, "stderr", 3, "lifecycle", 4]);
    expect(t.frames[1]).toMatchObject({ raw: '{"jsonrpc":"2.0","method":"x","params":{"k":"[REDACTED]"}}' });
    recorder.close();
    expect(st.meta(recorder.id)).toMatchObject({ frames: 4, redactions: 1 });
  });

  it("loses none of many turns' frames, in seq order", async () => {
    const { recorder, text, seq } = open();
    for (let turn = 0; turn < 20; turn++) {
      for (let i = 0; i < 50; i++) recorder.frame(seq.line("from-agent", update(turn * 50 + i)));
      await flushed();
    }
    recorder.close();
    const seqs = parseTranscript(text()).frames.map((f) => f.seq);
    expect(seqs).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  });

  it("writes the frames still queued when it closes (the agent's exit, the relay's shutdown)", async () => {
    const { recorder, text, seq, st } = open();
    for (let i = 0; i < 5; i++) recorder.frame(seq.line("from-agent", update(i)));
    recorder.lifecycle({ event: "exited", code: 0, signal: null });
    recorder.close();
    const t = parseTranscript(text());
    expect(t.events.map((e) => (e.type === "frame" ? e.seq : e.type))).toEqual([1, 2, 3, 4, 5, "lifecycle"]);
    expect(st.meta(recorder.id)).toMatchObject({ frames: 5, recording: false });
    // Nothing is taken after the close.
    const closed = text();
    recorder.frame(seq.line("from-agent", update(6)));
    await flushed();
    expect(text()).toBe(closed);
  });

  it("decides the cap in the lines' order when a turn's frames cross it", async () => {
    const { recorder, text, seq } = open(4096);
    for (let i = 0; i < 100; i++) {
      recorder.frame(seq.line("from-agent", update(i)));
      if (i === 10) recorder.stderr(Date.now(), "after frame 11");
    }
    await flushed();
    recorder.close();
    const t = parseTranscript(text());
    const last = t.events.at(-1) as { type: string; event: string; message: string };
    expect(last).toMatchObject({ type: "lifecycle", event: "capped" });
    expect(last.message).toMatch(new RegExp(`recording stopped at frame seq ${t.frames.length + 1}:`));
    expect(t.frames.map((f) => f.seq)).toEqual(Array.from({ length: t.frames.length }, (_, i) => i + 1));
    expect(t.events.findIndex((e) => e.type === "stderr")).toBe(11);
  });
});

describe("transcript recorder: a library that stays clean", () => {
  const store = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "acp-rec-"));
    dirs.push(dir);
    return new TranscriptStore(dir, {}, transcriptLimits({}));
  };
  const req = (id: number, method: string, params: object) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
  const prompt = (text: string) => req(3, "session/prompt", { sessionId: "s", prompt: [{ type: "text", text }] });

  it("titles a session by its first prompt, redacted; a rename still wins", async () => {
    const st = store();
    const recorder = new TranscriptRecorder(st, agent, ["sk-secret-123"]);
    const seq = new FrameSequencer();
    recorder.frame(seq.line("to-agent", req(1, "initialize", {})));
    recorder.frame(seq.line("to-agent", prompt("Read hello.txt with key sk-secret-123")));
    recorder.frame(seq.line("to-agent", prompt("a second prompt")));
    await flushed();
    recorder.close();
    expect(st.meta(recorder.id)!.title).toBe("Read hello.txt with key [REDACTED]");

    const renamed = new TranscriptRecorder(st, agent, []);
    st.rename(renamed.id, "Mine");
    renamed.frame(seq.line("to-agent", prompt("later")));
    await flushed();
    renamed.close();
    expect(st.meta(renamed.id)).toMatchObject({ title: "Mine", kind: "session" });
  });

  it("a session that never got a turn (a failed Connect) is kept apart, as unstarted; a probe is not", async () => {
    const st = store();
    const failed = new TranscriptRecorder(st, agent, []);
    failed.frame(new FrameSequencer().line("to-agent", req(1, "initialize", {})));
    failed.lifecycle({ event: "exited", code: 1, signal: null });
    failed.close();
    expect(st.meta(failed.id)).toMatchObject({ kind: "unstarted", turns: 0 });
    const probe = new TranscriptRecorder(st, agent, [], "probe");
    probe.close();
    expect(st.meta(probe.id)!.kind).toBe("probe");
  });

  it("a warm agent taken by a user is timed from the first frame sent to it then, not from its spawn", async () => {
    const st = store();
    const spawnedAt = Date.parse("2026-01-01T15:02:34Z");
    const recorder = new TranscriptRecorder(st, agent, [], "session", spawnedAt);
    const seq = new FrameSequencer();
    recorder.frame({ ...seq.line("to-agent", req(1, "initialize", {})), ts: spawnedAt + 10 });
    await flushed();
    recorder.claim();
    const sentAt = Date.parse("2026-01-01T15:05:00Z");
    recorder.frame({ ...seq.line("to-agent", req(2, "session/new", { cwd: "/", mcpServers: [] })), ts: sentAt });
    recorder.frame({ ...seq.line("to-agent", prompt("hi")), ts: sentAt + 5000 });
    await flushed();
    recorder.close();
    expect(st.meta(recorder.id)!.createdAt).toBe(new Date(sentAt).toISOString());
  });
});
