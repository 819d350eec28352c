/**
 * Records one agent's life to the store as it happens: every frame (redacted),
 * stderr, lifecycle events. Lines are written synchronously once per event-loop
 * turn, so a relay crash loses at most the current turn's lines. A frame is only
 * queued when it comes: it is redacted and serialized with the turn's write, off
 * the path from the agent's stdout to the socket (the relay's sockets get the turn's
 * frames first). A transcript stops at the store's per-file cap with a last line
 * saying where and why.
 */
import { closeSync, fstatSync, openSync, writeSync } from "node:fs";
import type { Frame } from "../../lib/protocol/frame";
import { createRedactor } from "../../lib/features/library/redact";
import {
  serialize,
  serializeFrame,
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  type LifecycleEvent,
  type TranscriptHeader,
} from "../../lib/contracts/transcript";
import { UNSTARTED, type TranscriptKind } from "../../lib/contracts/transcript-meta";
import { promptTitle } from "../../lib/features/library/recording-title";
import { PRIVATE_FILE, thisWriter, type TranscriptMeta, type TranscriptStore } from "./transcript-store";
import type { RecordingSink } from "./recording-observer";

/** How often a recording's counts reach its meta file, so the list shows them while it grows. */
const META_EVERY_MS = 1_000;
/** The longest unfinished stderr line held back for redaction; beyond it, recorded as it is. */
const MAX_HELD_STDERR = 64 * 1024;
import { VERSION } from "../version";
import { redactBytes } from "./redact-bytes";
import { AGENT_METHODS } from "../../lib/protocol/methods";
import { isTurnStart, protocolOf } from "../../lib/protocol/protocols";

export class TranscriptRecorder {
  private fd: number;
  private pending: string[] = [];
  /** Frames taken this turn, not yet made lines: every other line waits behind them, in order. */
  private frames: Frame[] = [];
  private scheduled = false;
  private closed = false;
  /** An unfinished stderr line, held (see stderr). */
  private heldStderr: { ts: number; text: string } | undefined;
  private failed = false;
  /** Bytes taken so far (written or pending), against the store's per-file cap. */
  private bytes = 0;
  private capped = false;
  private lastSeq = 0;
  private readonly redactor;
  private meta: TranscriptMeta;
  private metaWrittenAt = 0;
  /** The latest ts written: no line is stamped earlier (the header's createdAt included). */
  private lastTs: number;
  /** The store's recording observer's sink for this recording (docs/otel.md), if any. */
  private readonly sink: RecordingSink | undefined;
  /** A warm agent taken by a user (claim): its createdAt becomes the first frame then sent to it. */
  private createdOnNextSend = false;

  constructor(
    private readonly store: TranscriptStore,
    agent: TranscriptHeader["agent"],
    secrets: string[],
    /** How it is made; "tapped" (an editor was the client) is also marked in the header's `tapped` and the title. */
    kind: TranscriptKind = "session",
    /** When the agent started, if before now (a tap tells the relay later): the header's createdAt. */
    startedAt = Date.now(),
  ) {
    const tapped = kind === "tapped";
    this.redactor = createRedactor(secrets);
    const id = store.newId();
    this.lastTs = Math.floor(Math.min(startedAt, Date.now()));
    const createdAt = new Date(this.lastTs).toISOString();
    const header: TranscriptHeader = {
      type: "header",
      format: TRANSCRIPT_FORMAT,
      version: TRANSCRIPT_VERSION,
      id,
      createdAt,
      playground: { version: VERSION },
      // A profile's args may carry a key (`--api-key`, `--token=...`): redacted like a frame's.
      agent: {
        ...agent,
        command: this.redactor.text(agent.command).text,
        args: this.redactor.args(agent.args),
        cwd: this.redactor.text(agent.cwd).text,
      },
      ...(tapped ? { tapped: true as const } : {}),
      kind,
    };
    this.fd = openSync(store.file(id), "a", PRIVATE_FILE);
    const first = serialize(header);
    this.bytes = Buffer.byteLength(first);
    writeSync(this.fd, first);
    this.sink = store.recordings?.open(header);
    this.meta = {
      id,
      title: `${kind === "session" ? "" : `${kind === "rerun" ? "re-run" : kind} `}${agent.profile} ${createdAt.slice(0, 19).replace("T", " ")}`,
      createdAt,
      profile: agent.profile,
      kind,
      ...(tapped ? { tapped: true } : {}),
      ...(agent.protocol ? { protocol: agent.protocol } : {}),
      turns: 0,
      frames: 0,
      bytes: 0,
      redactions: 0,
      recording: true,
      writer: thisWriter(),
    };
    store.live.add(id);
    store.writeMeta(this.meta);
    // A new recording is when the store may have grown past its limits.
    store.prune();
  }

  get id(): string {
    return this.meta.id;
  }

  /**
   * A warm agent (server/agents/agent-pool.ts) was taken by a user: the recording is timed from
   * the first frame sent to it from now on, not from its spawn minutes before.
   */
  claim(): void {
    this.createdOnNextSend = true;
  }

  /** Timestamps never go backwards in a transcript (clocks of two processes, or a wall clock set back). */
  private stamp(ts: number): number {
    if (ts > this.lastTs) this.lastTs = ts;
    return this.lastTs;
  }

  /** Queues a frame for this turn's write (the caller must not change it meanwhile). */
  frame(frame: Frame): void {
    if (this.capped || this.closed) return;
    this.releaseStderr();
    this.frames.push(frame);
    this.schedule();
  }

  /** The frames queued so far become lines, before anything recorded after them. */
  private takeFrames(): void {
    if (this.frames.length === 0) return;
    const frames = this.frames;
    this.frames = [];
    for (const frame of frames) this.line(frame);
  }

  private line(frame: Frame): void {
    if (this.capped || this.closed) return;
    const { text, count } = this.redactor.frame(frame.raw);
    const bytes = frame.rawBase64 === undefined ? undefined : redactBytes(this.redactor, frame.rawBase64);
    const ts = this.stamp(frame.ts);
    if (!this.write(serializeFrame(frame, text, count, bytes, ts), `frame seq ${frame.seq}`)) return;
    this.sink?.frame(frame, text, count, ts);
    this.lastSeq = frame.seq;
    this.meta.frames++;
    this.meta.redactions += count;
    if (this.createdOnNextSend && frame.dir === "to-agent") {
      this.createdOnNextSend = false;
      this.meta.createdAt = new Date(ts).toISOString();
    }
    if (isTurnStart(protocolOf(this.meta), frame) && ++this.meta.turns === 1 && this.meta.kind === "session") {
      // Titled by its first prompt (redacted), as the tabs are; a rename still wins (userChanges).
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        message = undefined;
      }
      this.meta.title = promptTitle(message) ?? this.meta.title;
    }
    if (frame.kind === "response" && frame.method === AGENT_METHODS.initialize && frame.dir === "from-agent") {
      const result = (frame.message as { result?: Record<string, unknown> }).result;
      if (result) {
        const name = (result.agentInfo as { name?: string } | undefined)?.name;
        if (name) this.meta.agentName = name;
        const info = serialize({
          type: "agent-info",
          ts,
          protocolVersion: result.protocolVersion,
          agentInfo: result.agentInfo,
          agentCapabilities: result.agentCapabilities,
          authMethods: result.authMethods,
        });
        // Redacted like the frame it comes from (counted there).
        this.write(`${this.redactor.frame(info.slice(0, -1)).text}\n`, `agent-info after frame seq ${frame.seq}`);
      }
    }
  }

  /**
   * Stderr comes in chunks that may cut a secret in two (a pipe's 64 KiB, a program writing a
   * line in pieces): a chunk's unfinished last line is held, and redacted whole once the line
   * ends, anything else is recorded, or it grows past MAX_HELD_STDERR.
   */
  stderr(at: number, text: string): void {
    if (this.capped || this.closed) return;
    const held = this.heldStderr;
    const all = held ? held.text + text : text;
    const ts = held ? held.ts : at;
    this.heldStderr = undefined;
    const end = all.lastIndexOf("\n") + 1;
    if (end === all.length || all.length - end > MAX_HELD_STDERR) return this.writeStderr(ts, all);
    if (end > 0) this.writeStderr(ts, all.slice(0, end));
    this.heldStderr = { ts: end > 0 ? at : ts, text: all.slice(end) };
  }

  /** Records the held unfinished stderr line, before anything recorded after it. */
  private releaseStderr(): void {
    const held = this.heldStderr;
    this.heldStderr = undefined;
    if (held) this.writeStderr(held.ts, held.text);
  }

  private writeStderr(at: number, text: string): void {
    if (this.capped || this.closed) return;
    this.takeFrames();
    const ts = this.stamp(at);
    const r = this.redactor.text(text);
    const line = serialize(
      r.count ? { type: "stderr", ts, text: r.text, redacted: r.count } : { type: "stderr", ts, text },
    );
    if (this.write(line, `stderr after frame seq ${this.lastSeq}`)) this.meta.redactions += r.count;
  }

  lifecycle(event: Omit<LifecycleEvent, "type" | "ts">, at = Date.now()): void {
    this.releaseStderr();
    this.takeFrames();
    // A message may quote a URL, an error or a remote's close reason holding a secret.
    if (event.message !== undefined) event = { ...event, message: this.redactor.text(event.message).text };
    const line: LifecycleEvent = { type: "lifecycle", ts: this.stamp(at), ...event };
    if (this.write(serialize(line), `lifecycle "${event.event}"`)) this.sink?.lifecycle(line);
  }

  /** Queues a line; false once the cap is reached (the line that would cross it, and all after it, are left out). */
  private write(line: string, what: string): boolean {
    if (this.closed || this.capped) return false;
    const size = Buffer.byteLength(line);
    const cap = this.store.limits.fileBytes;
    if (this.bytes + size > cap) {
      this.capped = true;
      const note: LifecycleEvent = {
        type: "lifecycle",
        ts: this.stamp(Date.now()),
        event: "capped",
        message: `recording stopped at ${what}: the transcript reached its cap of ${cap} bytes (ACP_PLAYGROUND_TRANSCRIPT_MAX_BYTES); nothing after this line was recorded`,
      };
      // The note itself may cross the cap by its own few hundred bytes.
      this.pending.push(serialize(note));
      this.sink?.lifecycle(note);
      this.schedule();
      return false;
    }
    this.bytes += size;
    this.pending.push(line);
    this.schedule();
    return true;
  }

  private schedule(): void {
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    try {
      if (this.closed) return;
      // While still scheduled: the lines the frames make need no second turn.
      this.takeFrames();
      if (this.pending.length === 0) return;
      const chunk = this.pending.join("");
      this.pending = [];
      writeSync(this.fd, chunk);
      if (Date.now() - this.metaWrittenAt >= META_EVERY_MS) this.writeLiveMeta();
      // Only a note: the index reads the new lines from the file, in its own thread.
      this.store.index?.changed(this.meta.id);
    } catch (err) {
      // Recording must never take the relay down; the live session goes on.
      if (!this.failed) console.error(`transcript ${this.meta.id}: write failed: ${(err as Error).message}`);
      this.failed = true;
    } finally {
      this.scheduled = false;
    }
  }

  /** The counts so far, keeping what the user changed meanwhile (rename, share, revoke, a comparison's tag). */
  private writeLiveMeta(): void {
    this.metaWrittenAt = Date.now();
    this.store.writeMeta({ ...this.meta, ...this.userChanges(), bytes: this.bytes });
  }

  private userChanges(): Partial<TranscriptMeta> {
    const { title, renamed, shareToken, sharedAt, shareShowsCommand, kind, owner } =
      this.store.storedMeta(this.meta.id) ?? this.meta;
    return {
      ...(owner ? { owner } : {}),
      ...(kind ? { kind } : {}),
      ...(renamed ? { title, renamed } : {}),
      ...(shareToken && sharedAt ? { shareToken, sharedAt, ...(shareShowsCommand ? { shareShowsCommand } : {}) } : {}),
    };
  }

  close(): void {
    if (this.closed) return;
    this.releaseStderr();
    try {
      this.flush();
    } finally {
      this.closed = true;
      this.sink?.close();
      this.store.live.delete(this.meta.id);
      try {
        const bytes = fstatSync(this.fd).size;
        closeSync(this.fd);
        const changes = this.userChanges();
        // A session that never got a turn (a failed Connect) is no conversation: kept apart (UNSTARTED).
        const unstarted = (changes.kind ?? this.meta.kind) === "session" && this.meta.turns === 0;
        this.store.writeMeta({
          ...this.meta,
          ...changes,
          ...(unstarted ? { kind: UNSTARTED } : {}),
          bytes,
          recording: false,
          writer: undefined,
        });
        this.store.index?.changed(this.meta.id);
      } catch (err) {
        // The store went away (disk full, directory removed): the lines already written stay.
        console.error(`transcript ${this.meta.id}: cannot close: ${(err as Error).message}`);
      }
    }
  }
}
