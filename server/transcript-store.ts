/**
 * The embedded transcript store: one JSONL file per transcript plus a small
 * meta file (title, counts, share token) under ACP_PLAYGROUND_DATA/transcripts.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import {
  closeSync,
  createReadStream,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type ReadStream,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { countTurns, parseTranscript, serialize, TranscriptError, type TranscriptHeader } from "../lib/transcript";
import type { TranscriptMeta } from "../lib/transcript-meta";

export type { TranscriptMeta };

/** This process as a transcript writer. */
export const thisWriter = (): { host: string; pid: number } => ({ host: hostname(), pid: process.pid });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

const ID = /^[A-Za-z0-9_-]{1,80}$/;

export const DEMO_TRANSCRIPT_ID = "demo-gemini";
const DEMO_TRANSCRIPTS = {
  [DEMO_TRANSCRIPT_ID]: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "demo", "gemini-demo.jsonl"),
};

export class TranscriptStore {
  readonly dir: string;
  /** Ids being written by a live recorder in this process. */
  readonly live = new Set<string>();
  /** Warm-pool agents no browser has taken yet: not listed, and deleted if never used. */
  readonly unlisted = new Set<string>();

  constructor(dataDir: string, seeds: Record<string, string> = DEMO_TRANSCRIPTS) {
    this.dir = path.join(dataDir, "transcripts");
    mkdirSync(this.dir, { recursive: true });
    // Shipped demos, so a machine without credentials has something to replay.
    for (const [id, file] of Object.entries(seeds)) {
      if (!existsSync(this.file(id)) && existsSync(file)) writeFileSync(this.file(id), readFileSync(file));
    }
  }

  static isId(id: string): boolean {
    return ID.test(id);
  }

  newId(date = new Date()): string {
    const stamp = date.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
    return `${stamp}-${randomBytes(4).toString("hex")}`;
  }

  file(id: string): string {
    if (!TranscriptStore.isId(id)) throw new Error(`bad transcript id: ${id}`);
    return path.join(this.dir, `${id}.jsonl`);
  }

  private metaFile(id: string): string {
    return path.join(this.dir, `${id}.meta.json`);
  }

  exists(id: string): boolean {
    return TranscriptStore.isId(id) && existsSync(this.file(id));
  }

  writeMeta(meta: TranscriptMeta): void {
    const target = this.metaFile(meta.id);
    writeFileSync(`${target}.tmp`, JSON.stringify(meta, null, 2));
    renameSync(`${target}.tmp`, target);
  }

  /** Rebuilds the meta of a file from its content (after a crash, or for an import). */
  private scan(id: string, previous?: TranscriptMeta): TranscriptMeta {
    const text = readFileSync(this.file(id), "utf8");
    const t = parseTranscript(text);
    const info = t.events.find((e) => e.type === "agent-info");
    const agentName =
      (info?.type === "agent-info" && (info.agentInfo as { name?: string } | undefined)?.name) || undefined;
    return {
      id,
      title:
        previous?.title ??
        t.header.title ??
        `${t.header.agent.profile} ${t.header.createdAt.slice(0, 19).replace("T", " ")}`,
      createdAt: t.header.createdAt,
      profile: t.header.agent.profile,
      agentName,
      ...(t.header.tapped ? { tapped: true } : {}),
      turns: countTurns(t.frames),
      frames: t.frames.length,
      bytes: Buffer.byteLength(text),
      redactions: t.redactions,
      recording: false,
      shareToken: previous?.shareToken ?? randomBytes(18).toString("base64url"),
    };
  }

  meta(id: string): TranscriptMeta | undefined {
    if (!this.exists(id)) return undefined;
    let meta: TranscriptMeta | undefined;
    try {
      meta = JSON.parse(readFileSync(this.metaFile(id), "utf8")) as TranscriptMeta;
    } catch {
      meta = undefined;
    }
    if (meta && (!meta.recording || this.writing(id, meta))) {
      return meta.recording ? { ...meta, bytes: statSync(this.file(id)).size } : meta;
    }
    // Missing meta, or a recording whose writer is gone (crash): recount.
    try {
      const fresh = this.scan(id, meta);
      this.writeMeta(fresh);
      return fresh;
    } catch {
      return undefined;
    }
  }

  /**
   * Whether a recording is still being written: by this process, by another
   * live process on this host (a cluster worker), or on another host (which
   * cannot be checked from here, so its word stands).
   */
  private writing(id: string, meta: TranscriptMeta): boolean {
    if (this.live.has(id)) return true;
    const writer = meta.writer;
    if (!writer) return false;
    const self = thisWriter();
    if (writer.host !== self.host) return true;
    return writer.pid !== self.pid && alive(writer.pid);
  }

  list(): TranscriptMeta[] {
    return readdirSync(this.dir)
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => f.slice(0, -".jsonl".length))
      .filter((id) => !this.unlisted.has(id))
      .map((id) => this.meta(id))
      .filter((m): m is TranscriptMeta => m !== undefined)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** The JSONL, with the current title in its header. */
  read(id: string): string | undefined {
    const meta = this.meta(id);
    if (!meta) return undefined;
    const text = readFileSync(this.file(id), "utf8");
    const nl = text.indexOf("\n");
    return this.titled(meta, nl === -1 ? text : text.slice(0, nl)) + (nl === -1 ? "" : text.slice(nl + 1));
  }

  /**
   * The same JSONL for sending as it is read: the header line (with the current
   * title) now, the rest as a stream, so a large transcript starts arriving at once.
   * The length is fixed when it is opened: a live recording's later lines (and
   * any half-written one) are left out, and a delete meanwhile cuts nothing short.
   */
  stream(id: string): { header: string; rest: ReadStream | undefined } | undefined {
    const meta = this.meta(id);
    if (!meta) return undefined;
    const fd = openSync(this.file(id), "r");
    try {
      // The recorder writes whole lines synchronously on this thread: this size ends a line.
      const size = fstatSync(fd).size;
      const chunks: Buffer[] = [];
      let read = 0;
      let nl = -1;
      while (nl === -1 && read < size) {
        const chunk = Buffer.alloc(Math.min(64 * 1024, size - read));
        const n = readSync(fd, chunk, 0, chunk.length, read);
        if (n === 0) break;
        const at = chunk.subarray(0, n).indexOf(0x0a);
        chunks.push(chunk.subarray(0, n));
        if (at !== -1) nl = read + at;
        read += n;
      }
      const head = Buffer.concat(chunks);
      if (nl === -1 || nl + 1 >= size) {
        closeSync(fd);
        return {
          header: this.titled(meta, head.subarray(0, nl === -1 ? head.length : nl).toString("utf8")),
          rest: undefined,
        };
      }
      return {
        header: this.titled(meta, head.subarray(0, nl).toString("utf8")),
        rest: createReadStream("", { fd, start: nl + 1, end: size - 1 }),
      };
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  private titled(meta: TranscriptMeta, headerLine: string): string {
    return serialize({ ...(JSON.parse(headerLine) as TranscriptHeader), title: meta.title });
  }

  rename(id: string, title: string): TranscriptMeta | undefined {
    const meta = this.meta(id);
    if (!meta) return undefined;
    const next = { ...meta, title };
    this.writeMeta(next);
    return next;
  }

  delete(id: string): boolean {
    if (!this.exists(id) || this.live.has(id) || this.meta(id)?.recording) return false;
    rmSync(this.file(id), { force: true });
    rmSync(this.metaFile(id), { force: true });
    return true;
  }

  /** Validates a whole file first: an invalid one is refused and nothing is stored. */
  import(text: string): TranscriptMeta {
    const parsed = parseTranscript(text); // throws TranscriptError naming the line
    if (parsed.truncated) throw new TranscriptError(text.split("\n").length, "the last line is cut off");
    const id = this.newId();
    const body = text.endsWith("\n") ? text : `${text}\n`;
    writeFileSync(this.file(id), body);
    const meta = this.scan(id);
    this.writeMeta(meta);
    return meta;
  }
}
