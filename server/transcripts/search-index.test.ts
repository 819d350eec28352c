import Database from "better-sqlite3";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { serialize, serializeFrame } from "../../lib/contracts/transcript";
import type { FrameKind } from "../../lib/protocol/frame";
import { transcriptLimits } from "../config";
import { INDEX_FILE, INDEX_VERSION, SearchIndex } from "./search-index";
import { TranscriptRecorder } from "./transcript-recorder";
import { TranscriptStore } from "./transcript-store";
import { testHeader } from "../../test/transcripts";

const dirs: string[] = [];
const open: SearchIndex[] = [];
afterEach(() => {
  for (const i of open.splice(0)) i.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newStore(): TranscriptStore {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-index-"));
  dirs.push(dir);
  return new TranscriptStore(dir, {}, transcriptLimits({}));
}

function index(store: TranscriptStore): SearchIndex {
  const i = new SearchIndex(store.dir);
  open.push(i);
  return i;
}

interface F {
  dir?: "to-agent" | "from-agent";
  kind?: FrameKind;
  method?: string;
  message: object;
  latencyMs?: number;
}

const update = (sessionUpdate: string, fields: object): F => ({
  method: "session/update",
  kind: "notification",
  message: {
    jsonrpc: "2.0",
    method: "session/update",
    params: { sessionId: "s1", update: { sessionUpdate, ...fields } },
  },
});
const say = (text: string) => update("agent_message_chunk", { content: { type: "text", text } });
const tool = (title: string) => update("tool_call", { title });

function text(opts: {
  profile?: string;
  createdAt?: string;
  agentName?: string;
  frames: F[];
  stderr?: string;
}): string {
  let out = serialize(
    testHeader({
      createdAt: opts.createdAt ?? "2026-11-20T10:00:00.000Z",
      agent: { profile: opts.profile ?? "gemini", command: "gemini" },
    }),
  );
  const frames: F[] = [
    {
      dir: "from-agent",
      kind: "response",
      method: "initialize",
      latencyMs: 5,
      message: { jsonrpc: "2.0", id: 0, result: { agentInfo: { name: opts.agentName ?? "gemini-cli" } } },
    },
    ...opts.frames,
  ];
  frames.forEach((f, i) => {
    out += serializeFrame({
      seq: i + 1,
      ts: 1000 + i,
      dir: f.dir ?? "from-agent",
      kind: f.kind ?? "notification",
      raw: JSON.stringify(f.message),
      ...(f.method ? { method: f.method } : {}),
      ...(f.latencyMs !== undefined ? { latencyMs: f.latencyMs } : {}),
    });
    if (i === 0)
      out += serialize({ type: "agent-info", ts: 1000, agentInfo: { name: opts.agentName ?? "gemini-cli" } });
    if (i === 0 && opts.stderr) out += serialize({ type: "stderr", ts: 1000, text: opts.stderr });
  });
  return out;
}

function importText(store: TranscriptStore, body: string): string {
  const temp = store.tempFile();
  writeFileSync(temp, body);
  return store.import(temp).id;
}

/** A small fixed library: what each search below must find, in order. */
function corpus(store: TranscriptStore) {
  const a = importText(
    store,
    text({
      frames: [
        {
          dir: "to-agent",
          kind: "request",
          method: "session/prompt",
          message: {
            id: 2,
            method: "session/prompt",
            params: { prompt: [{ type: "text", text: "Fix the failing build" }] },
          },
        },
        say("The build failed because of a missing semicolon in src/app.ts"),
        update("tool_call", {
          title: "Edit src/app.ts",
          locations: [{ path: "/w/src/app.ts" }],
          rawInput: { old: "x" },
        }),
        {
          kind: "response",
          method: "session/prompt",
          latencyMs: 300,
          message: { id: 2, result: { stopReason: "end_turn" } },
          dir: "from-agent",
        },
      ],
      stderr: "Ripgrep is not available. Falling back to GrepTool.",
    }),
  );
  const b = importText(
    store,
    text({
      profile: "claude",
      agentName: "claude-code",
      createdAt: "2026-11-24T09:00:00.000Z",
      frames: [
        update("tool_call", { title: "Run tests", rawInput: { command: "npm run build && npm test" } }),
        {
          dir: "from-agent",
          kind: "response",
          method: "session/new",
          latencyMs: 40,
          message: { id: 1, error: { code: -32603, message: "quota exceeded for the build server" } },
        },
      ],
    }),
  );
  return { a, b };
}

describe("SearchIndex", () => {
  it("indexes every transcript: messages, tool titles and arguments, paths, prompts, stderr, errors", () => {
    const store = newStore();
    const { a, b } = corpus(store);
    const idx = index(store);
    idx.updateAll();
    expect(idx.counts().transcripts).toBe(2);
    const ids = (q: string) =>
      idx
        .search({ q })
        .hits.map((h) => `${h.transcript.id === a ? "a" : h.transcript.id === b ? "b" : "?"}:${h.seq}:${h.field}`);
    expect(ids("semicolon")).toEqual(["a:3:message"]);
    expect(ids("app.ts")).toEqual(expect.arrayContaining(["a:3:message", "a:4:tool"]));
    expect(ids("ripgrep")).toEqual(["a:1:stderr"]);
    expect(ids("npm test")).toEqual(["b:2:tool"]);
    expect(ids("failing")).toEqual(["a:2:prompt"]);
    expect(ids("quota")).toEqual(["b:3:error"]);
    const hit = idx.search({ q: "missing semi" }).hits[0]!;
    expect(hit.line).toContain("missing semicolon");
    expect(hit.marks.map(([s, e]) => hit.line.slice(s, e))).toEqual(["missing", "semicolon"]);
    expect(hit.transcript).toMatchObject({ id: a, profile: "gemini", agentName: "gemini-cli", kind: "upload" });
  });

  it("ranks the reader's text above other strings, and filters", () => {
    const store = newStore();
    const { a, b } = corpus(store);
    const idx = index(store);
    idx.updateAll();
    // "build": in a's prompt and message and b's error (the text a reader looks for) before b's tool arguments.
    const hits = idx.search({ q: "build" }).hits;
    expect(hits.slice(0, 3).map((h) => h.field)).toEqual(expect.arrayContaining(["error", "prompt", "message"]));
    expect(hits.map((h) => h.field)).toHaveLength(4);
    expect(idx.search({ q: "build failed" }).hits.map((h) => h.field)).toEqual(["message"]);
    expect(hits.at(-1)!.transcript.id).toBe(b);
    expect(idx.search({ q: "build", errors: true }).hits.map((h) => h.seq)).toEqual([3]);
    expect(idx.search({ q: "build", profile: "gemini" }).hits.every((h) => h.transcript.id === a)).toBe(true);
    expect(idx.search({ q: "build", agent: "claude-code" }).hits.every((h) => h.transcript.id === b)).toBe(true);
    expect(idx.search({ q: "build", method: "session/prompt" }).hits.map((h) => h.field)).toEqual(["prompt"]);
    expect(idx.search({ q: "build", from: "2026-11-21" }).hits.every((h) => h.transcript.id === b)).toBe(true);
    expect(idx.search({ q: "build", to: "2026-11-21" }).hits.every((h) => h.transcript.id === a)).toBe(true);
    expect(idx.search({ q: "build", transcript: b }).total).toBe(2);
    expect(idx.search({ q: 'NEAR(" OR *' }).hits).toEqual([]);
  });

  it("weighs the text a reader looks for above other strings (arguments, ids)", () => {
    const store = newStore();
    const long = `${"words of a long answer ".repeat(8)}mentioning quagga once`;
    const inBody = importText(store, text({ frames: [say(long)] }));
    const inArgs = importText(
      store,
      text({ frames: [update("tool_call", { title: "Run tests", rawInput: { command: "quagga" } })] }),
    );
    const idx = index(store);
    idx.updateAll();
    expect(idx.search({ q: "quagga" }).hits.map((h) => h.transcript.id)).toEqual([inBody, inArgs]);
  });

  it("follows import, rename and delete", () => {
    const store = newStore();
    const { a } = corpus(store);
    const idx = index(store);
    idx.updateAll();
    store.rename(a, "Semicolon hunt");
    expect(idx.stale()).toEqual([a]);
    idx.update(a);
    expect(idx.search({ q: "semicolon" }).hits[0]!.transcript.title).toBe("Semicolon hunt");
    const c = importText(store, text({ frames: [say("a brand new zebra")] }));
    expect(idx.search({ q: "zebra" }).hits).toEqual([]);
    idx.update(c);
    expect(idx.search({ q: "zebra" }).hits.map((h) => h.transcript.id)).toEqual([c]);
    store.delete(c);
    idx.update(c);
    expect(idx.search({ q: "zebra" }).hits).toEqual([]);
    // A file removed behind its back is dropped by the next pass.
    store.delete(a);
    expect(idx.stale()).toEqual([]);
    expect(idx.search({ q: "semicolon" }).hits).toEqual([]);
    expect(idx.counts().transcripts).toBe(1);
  });

  it("indexes a recording as it grows, only the new lines, and a file replaced from its start", () => {
    const store = newStore();
    const id = importText(store, text({ frames: [say("first words")] }));
    const idx = index(store);
    idx.updateAll();
    const file = store.file(id);
    // Half a line (a write in progress) is left for the next pass.
    const raw = JSON.stringify({
      method: "session/update",
      params: { update: { sessionUpdate: "agent_message_chunk", content: { text: "later words" } } },
    });
    const line = serializeFrame({
      seq: 3,
      ts: 5,
      dir: "from-agent",
      kind: "notification",
      raw,
      method: "session/update",
    });
    appendFileSync(file, line.slice(0, 20));
    idx.update(id);
    expect(idx.search({ q: "later" }).hits).toEqual([]);
    appendFileSync(file, line.slice(20));
    idx.update(id);
    expect(idx.search({ q: "later" }).hits.map((h) => h.seq)).toEqual([3]);
    expect(idx.search({ q: "first" }).hits.map((h) => h.seq)).toEqual([2]);
    expect(idx.counts().docs).toBe(3);
    writeFileSync(file, text({ frames: [say("other content")] }));
    idx.update(id);
    expect(idx.search({ q: "first" }).hits).toEqual([]);
    expect(idx.search({ q: "other" }).hits).toHaveLength(1);
  });

  it("finds a phrase or a word that a chunk's edge cuts, once, and only within one streamed message", () => {
    const store = newStore();
    const run = tool("Run tests");
    const id = importText(
      store,
      text({ frames: [say("Hello wor"), say("ld again, said the"), say(" robot to"), say(" its friend"), run] }),
    );
    const idx = index(store);
    idx.updateAll();
    const seqs = (q: string) => idx.search({ q }).hits.map((h) => h.seq);
    // Frames: 1 initialize, 2 "Hello wor", 3 "ld again, said the", 4 " robot to", 5 " its friend", 6 the tool call.
    expect(seqs('"world again"')).toEqual([3]);
    expect(seqs('"hello world again"')).toEqual([3]);
    expect(seqs("world")).toEqual([3]);
    expect(seqs('"said the robot"')).toEqual([4]);
    expect(seqs('"robot to its"')).toEqual([5]);
    // Wholly inside one chunk: that chunk alone, not the next one too.
    expect(seqs('"again said"')).toEqual([3]);
    expect(seqs("said")).toEqual([3]);
    expect(seqs('"robot to"')).toEqual([4]);
    // A recording read as it grows: the message's last words are kept between passes.
    const line = (seq: number, f: F) =>
      serializeFrame({
        seq,
        ts: seq,
        dir: "from-agent",
        kind: "notification",
        raw: JSON.stringify(f.message),
        method: f.method,
      });
    appendFileSync(store.file(id), line(7, say("Good mor")));
    idx.update(id);
    appendFileSync(store.file(id), line(8, say("ning everyone")));
    idx.update(id);
    expect(seqs('"good morning everyone"')).toEqual([8]);
    // Another frame between two chunks ends the message: its chunks are not joined.
    appendFileSync(store.file(id), line(9, say("zig")) + line(10, run) + line(11, say("zag")));
    idx.update(id);
    expect(seqs('"zig zag"')).toEqual([]);
    expect(seqs("zigzag")).toEqual([]);
  });

  it("looks for the word being typed as the words it begins, as the tokenizer keeps them", () => {
    const store = newStore();
    const many = Array.from({ length: 70 }, (_, i) => `zqx${i}`).join(" ");
    importText(store, text({ frames: [say("Résumé of the configuration"), tool("configure it"), say(many)] }));
    const idx = index(store);
    idx.updateAll();
    const fields = (q: string) => idx.search({ q }).hits.map((h) => `${h.seq}:${h.field}`);
    expect(fields("config").sort()).toEqual(["2:message", "3:tool"]);
    expect(fields("the config")).toEqual(["2:message"]);
    expect(fields("resu")).toEqual(["2:message"]);
    expect(fields("RÉSU")).toEqual(["2:message"]);
    expect(fields('"config"')).toEqual([]);
    // A prefix of more words than are looked for one by one: FTS5's own prefix query.
    expect(fields("zqx")).toEqual(["4:message"]);
    expect(fields("zqx6")).toEqual(["4:message"]);
    // Shorter than 3 letters, such a prefix is only the word itself (search-index-limits.test.ts).
    expect(fields("zq")).toEqual([]);
  });

  it("reads a file in slices with memory bounded by the longest line; hostile lines are skipped", () => {
    const store = newStore();
    let body = text({ frames: [say("before")] });
    body += "not json at all\n";
    body += `${JSON.stringify({ type: "frame", seq: "x", raw: 1 })}\n`;
    body += serializeFrame({ seq: 1, ts: 1, dir: "from-agent", kind: "notification", raw: '{"method":"dup seq"}' });
    // Checked by the format's own fields (FRAME_FIELDS), not by hand: a kind that is none is no frame.
    body += `${JSON.stringify({ type: "frame", seq: 5, ts: 1, dir: "from-agent", kind: "bogus", raw: '{"method":"bogus kind"}' })}\n`;
    for (let i = 0; i < 2000; i++) {
      const raw = JSON.stringify({
        method: "session/update",
        params: {
          update: { sessionUpdate: "agent_message_chunk", content: { text: `word${i} ${"pad ".repeat(200)}` } },
        },
      });
      body += serializeFrame({
        seq: 10 + i,
        ts: 1,
        dir: "from-agent",
        kind: "notification",
        raw,
        method: "session/update",
      });
    }
    const dir = store.dir;
    writeFileSync(path.join(dir, "hostile.jsonl"), body);
    const idx = index(store);
    let passes = 0;
    while (!idx.update("hostile", 256 * 1024)) passes++;
    expect(passes).toBeGreaterThan(3);
    expect(idx.search({ q: "word1999" }).hits.map((h) => h.seq)).toEqual([2009]);
    expect(idx.search({ q: "word0" }).hits.map((h) => h.seq)).toEqual([10]);
    expect(idx.search({ q: "dup" }).hits).toEqual([]);
    expect(idx.search({ q: "bogus" }).hits).toEqual([]);
    expect(idx.counts().docs).toBe(2002);
  });

  it("is rebuilt from the files when missing, unreadable or of an older version", () => {
    const store = newStore();
    corpus(store);
    let idx = index(store);
    idx.updateAll();
    idx.close();
    open.pop();
    const file = path.join(store.dir, INDEX_FILE);
    const db = new Database(file);
    // Versions 6 and 7 are brought up to date in place (below); those before are rebuilt.
    db.pragma("user_version = 5");
    db.close();
    idx = index(store);
    expect(idx.counts()).toEqual({ transcripts: 0, docs: 0, calls: 0 });
    expect(idx.stale()).toHaveLength(2);
    idx.updateAll();
    expect(idx.search({ q: "semicolon" }).hits).toHaveLength(1);
    idx.close();
    open.pop();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    writeFileSync(file, "garbage, not a database".repeat(100));
    idx = index(store);
    idx.updateAll();
    expect(idx.search({ q: "semicolon" }).hits).toHaveLength(1);
  });

  it("adds the owners to an index of version 6, keeping its words: the search filters by owner", () => {
    const store = newStore();
    const { a } = corpus(store);
    store.own(a, "alice");
    let idx = index(store);
    idx.updateAll();
    idx.close();
    open.pop();
    const db = new Database(path.join(store.dir, INDEX_FILE));
    db.exec("ALTER TABLE transcripts DROP COLUMN owner");
    db.pragma("user_version = 6");
    db.close();
    idx = index(store);
    const before = idx.counts();
    expect(before.docs).toBeGreaterThan(0);
    expect(idx.stale()).toHaveLength(2);
    idx.updateAll();
    expect(idx.counts()).toEqual(before);
    expect(new Set(idx.search({ q: "build" }).hits.map((h) => h.transcript.id)).size).toBe(2);
    expect(new Set(idx.search({ q: "build", owner: "alice" }).hits.map((h) => h.transcript.id))).toEqual(new Set([a]));
    expect(idx.search({ q: "build", owner: "bob" }).hits).toEqual([]);
    expect(idx.latency({ owner: "alice" }).transcripts).toBe(1);
  });

  it("upgrades an index of version 7 that holds a failed start as a session: search and latency agree with the list", () => {
    const store = newStore();
    corpus(store);
    // A session closed without a turn (a failed Connect): the list's kind "unstarted".
    const failed = new TranscriptRecorder(store, { profile: "missing", command: "c", args: [], cwd: "/" }, []);
    failed.close();
    const listed = (kind: string) => store.list().filter((m) => m.kind === kind).length;
    expect([listed("session"), listed("unstarted")]).toEqual([0, 1]);
    let idx = index(store);
    idx.updateAll();
    idx.close();
    open.pop();
    const db = new Database(path.join(store.dir, INDEX_FILE));
    // As indexed by a version that did not know the kind "unstarted" (its meta files unchanged since).
    db.prepare("UPDATE transcripts SET kind = 'session' WHERE id = ?").run(failed.id);
    db.pragma("user_version = 7");
    db.close();
    idx = index(store);
    const before = idx.counts();
    idx.updateAll();
    expect(idx.counts()).toEqual(before);
    expect(idx.latency({ kind: "session" }).transcripts).toBe(listed("session"));
    expect(idx.latency({ kind: "unstarted" }).transcripts).toBe(listed("unstarted"));
  });

  it("rebuilds an index of the format before (version 2: no filters or joints in the full-text table)", () => {
    const store = newStore();
    corpus(store);
    const file = path.join(store.dir, INDEX_FILE);
    const db = new Database(file);
    db.exec(`
      CREATE TABLE transcripts (tid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL DEFAULT '',
        profile TEXT NOT NULL DEFAULT '', agent TEXT, kind TEXT NOT NULL DEFAULT 'session', created_at TEXT NOT NULL DEFAULT '',
        size INTEGER NOT NULL DEFAULT 0, mtime REAL NOT NULL DEFAULT 0, meta_mtime REAL NOT NULL DEFAULT 0,
        ino INTEGER NOT NULL DEFAULT 0, offset INTEGER NOT NULL DEFAULT 0, last_seq INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE docs (rowid INTEGER PRIMARY KEY, tid INTEGER NOT NULL, seq INTEGER NOT NULL, ts INTEGER NOT NULL,
        dir TEXT, kind TEXT NOT NULL, method TEXT, field TEXT NOT NULL, error INTEGER NOT NULL, off INTEGER NOT NULL, len INTEGER NOT NULL);
      CREATE VIRTUAL TABLE fts USING fts5(body, extra, content='', contentless_delete=1);
      CREATE TABLE calls (tid INTEGER NOT NULL, seq INTEGER NOT NULL, method TEXT NOT NULL, dir TEXT NOT NULL, ms REAL NOT NULL, error INTEGER NOT NULL);
      INSERT INTO transcripts (id, title) VALUES ('gone', 'indexed by version 2');
    `);
    db.pragma("user_version = 2");
    db.close();
    expect(INDEX_VERSION).toBeGreaterThan(2);
    const idx = index(store);
    expect(idx.counts()).toEqual({ transcripts: 0, docs: 0, calls: 0 });
    idx.updateAll();
    expect(idx.search({ q: "quota", errors: true, agent: "claude-code" }).hits.map((h) => h.field)).toEqual(["error"]);
  });

  it("measures latency per method and direction across the library, filtered", () => {
    const store = newStore();
    corpus(store);
    const idx = index(store);
    idx.updateAll();
    const all = idx.latency({});
    expect(all.transcripts).toBe(2);
    expect(all.rows).toEqual([
      {
        method: "session/prompt",
        dir: "to-agent",
        requests: 1,
        answered: 1,
        errors: 0,
        pending: 0,
        p50: 300,
        p95: 300,
        p99: 300,
        max: 300,
      },
      {
        method: "session/new",
        dir: "to-agent",
        requests: 1,
        answered: 1,
        errors: 1,
        pending: 0,
        p50: 40,
        p95: 40,
        p99: 40,
        max: 40,
      },
      {
        method: "initialize",
        dir: "to-agent",
        requests: 2,
        answered: 2,
        errors: 0,
        pending: 0,
        p50: 5,
        p95: 5,
        p99: 5,
        max: 5,
      },
    ]);
    expect(idx.latency({ agent: "claude-code" }).rows.map((r) => r.method)).toEqual(["session/new", "initialize"]);
    expect(idx.latency({ from: "2030-01-01" })).toMatchObject({ rows: [], transcripts: 0 });
  });
});
