/**
 * Records one agent's life to the store as it happens: every frame (redacted),
 * stderr, lifecycle events. Lines are written synchronously once per event-loop
 * turn, so a relay crash loses at most the current turn's lines.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, openSync, writeSync } from "node:fs";
import type { Frame } from "../lib/frame";
import { createRedactor } from "../lib/redact";
import {
  serialize,
  serializeFrame,
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  type LifecycleEvent,
  type TranscriptHeader,
} from "../lib/transcript";
import { thisWriter, type TranscriptMeta, type TranscriptStore } from "./transcript-store";
import { VERSION } from "./version";

export class TranscriptRecorder {
  private fd: number;
  private pending: string[] = [];
  private scheduled = false;
  private closed = false;
  private failed = false;
  private readonly redactor;
  private meta: TranscriptMeta;

  constructor(
    private readonly store: TranscriptStore,
    agent: TranscriptHeader["agent"],
    secrets: string[],
    /** A tapped conversation (an editor was the client): marked in the header, the meta and the title. */
    tapped = false,
  ) {
    this.redactor = createRedactor(secrets);
    const id = store.newId();
    const createdAt = new Date().toISOString();
    const header: TranscriptHeader = {
      type: "header",
      format: TRANSCRIPT_FORMAT,
      version: TRANSCRIPT_VERSION,
      id,
      createdAt,
      playground: { version: VERSION },
      agent,
      ...(tapped ? { tapped: true as const } : {}),
    };
    this.fd = openSync(store.file(id), "a");
    writeSync(this.fd, serialize(header));
    this.meta = {
      id,
      title: `${tapped ? "tapped " : ""}${agent.profile} ${createdAt.slice(0, 19).replace("T", " ")}`,
      createdAt,
      profile: agent.profile,
      ...(tapped ? { tapped: true } : {}),
      turns: 0,
      frames: 0,
      bytes: 0,
      redactions: 0,
      recording: true,
      writer: thisWriter(),
      shareToken: randomBytes(18).toString("base64url"),
    };
    store.live.add(id);
    store.writeMeta(this.meta);
  }

  get id(): string {
    return this.meta.id;
  }

  frame(frame: Frame): void {
    const { text, count } = this.redactor.frame(frame.raw);
    this.meta.frames++;
    this.meta.redactions += count;
    if (frame.dir === "to-agent" && frame.kind === "request" && frame.method === "session/prompt") this.meta.turns++;
    this.write(serializeFrame(frame, text, count));
    if (frame.kind === "response" && frame.method === "initialize" && frame.dir === "from-agent") {
      const result = (frame.message as { result?: Record<string, unknown> }).result;
      if (result) {
        const name = (result.agentInfo as { name?: string } | undefined)?.name;
        if (name) this.meta.agentName = name;
        this.write(
          serialize({
            type: "agent-info",
            ts: frame.ts,
            protocolVersion: result.protocolVersion,
            agentInfo: result.agentInfo,
            agentCapabilities: result.agentCapabilities,
            authMethods: result.authMethods,
          }),
        );
      }
    }
  }

  stderr(ts: number, text: string): void {
    const r = this.redactor.text(text);
    this.meta.redactions += r.count;
    this.write(
      serialize(r.count ? { type: "stderr", ts, text: r.text, redacted: r.count } : { type: "stderr", ts, text }),
    );
  }

  lifecycle(event: Omit<LifecycleEvent, "type" | "ts">): void {
    this.write(serialize({ type: "lifecycle", ts: Date.now(), ...event }));
  }

  private write(line: string): void {
    if (this.closed) return;
    this.pending.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0 || this.closed) return;
    const chunk = this.pending.join("");
    this.pending = [];
    try {
      writeSync(this.fd, chunk);
    } catch (err) {
      // Recording must never take the relay down; the live session goes on.
      if (!this.failed) console.error(`transcript ${this.meta.id}: write failed: ${(err as Error).message}`);
      this.failed = true;
    }
  }

  close(): void {
    if (this.closed) return;
    try {
      this.flush();
    } finally {
      this.closed = true;
      this.store.live.delete(this.meta.id);
      try {
        const bytes = fstatSync(this.fd).size;
        closeSync(this.fd);
        this.store.writeMeta({ ...this.meta, bytes, recording: false, writer: undefined });
      } catch (err) {
        // The store went away (disk full, directory removed): the lines already written stay.
        console.error(`transcript ${this.meta.id}: cannot close: ${(err as Error).message}`);
      }
    }
  }
}
