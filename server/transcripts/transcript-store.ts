/**
 * The embedded transcript store: one JSONL file per transcript plus a small
 * meta file (title, counts, share token) under ACP_PLAYGROUND_DATA/transcripts.
 * Both hold what agents and users said, and share tokens: the directories are
 * 0700 and the files 0600. Retention keeps the store within its limits.
 */
import { createHash, randomBytes } from "node:crypto";
import { hostname } from "node:os";
import {
  chmodSync,
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
import { pipeline, type Readable } from "node:stream";
import { isTurnStart, protocolOf } from "../../lib/protocol/protocols";
import { serialize, TranscriptError, type AgentInfoEvent, type TranscriptHeader } from "../../lib/contracts/transcript";
import { TranscriptLines, type TranscriptLine } from "../../lib/contracts/transcript-lines";
import {
  inferKind,
  type ListFilter,
  type TranscriptKind,
  type TranscriptMeta,
} from "../../lib/contracts/transcript-meta";
import { transcriptLimits, type TranscriptLimits } from "../config";
import { isAlive } from "../process-group";
import { PACKAGE_ROOT } from "../runtime";
import type { IndexObserver } from "./library-index";
import { HIDDEN_WORKSPACE, localPathHider } from "./local-paths";
import type { RecordingObserver } from "./recording-observer";

export type { TranscriptMeta };

/** This process as a transcript writer. */
export const thisWriter = (): { host: string; pid: number } => ({ host: hostname(), pid: process.pid });

const ID = /^[A-Za-z0-9_-]{1,80}$/;
const PRIVATE_DIR = 0o700;
/** Files are created with this mode (`writeFileSync`, `openSync`). */
export const PRIVATE_FILE = 0o600;
const SCAN_CHUNK = 1024 * 1024;
/**
 * A directory changed this recently when the list was read may change again within the same
 * tick of the filesystem's clock, leaving its mtime as it was: such a list is read again. A
 * whole-second mtime is taken for a filesystem that keeps only seconds (FAT keeps two).
 */
const racyMs = (mtimeMs: number) => (mtimeMs % 1000 === 0 ? 2_000 : 50);

/** A scan's result, kept while the file's size and mtime stay the same. */
interface Scanned {
  size: number;
  mtimeMs: number;
  meta?: TranscriptMeta;
}

export const DEMO_TRANSCRIPT_ID = "demo-gemini";
const DEMO_TRANSCRIPTS = {
  [DEMO_TRANSCRIPT_ID]: path.join(PACKAGE_ROOT, "demo", "gemini-demo.jsonl"),
};

export class TranscriptStore {
  readonly dir: string;
  /** Ids being written by a live recorder in this process. */
  readonly live = new Set<string>();
  /** Warm-pool agents no browser has taken yet: not listed, and deleted if never used. */
  readonly unlisted = new Set<string>();
  /** Not yet copied to the team library (server/stores/pg-mirror.ts): retention keeps them. */
  readonly pinned = new Set<string>();

  /** The search index, told of every change (the relay's; none in the CLI and tests). */
  index: IndexObserver | undefined;
  /** Sees every recording as it is written (the live OTLP export, docs/otel.md); none unless asked. */
  recordings: RecordingObserver | undefined;

  /** Files read whole by a scan (a hook for tests: a list must not rescan unchanged files). */
  scans = 0;
  private readonly scanned = new Map<string, Scanned>();
  private readonly metas = new Map<string, { ino: number; size: number; mtimeMs: number; meta: TranscriptMeta }>();
  /** Times list() read every meta (a hook for tests: an unchanged directory is answered from memory). */
  listReads = 0;
  /**
   * The list as last read, with the directory's mtime then. `recheck`: ids asked again on every
   * list (recordings, whose size and writer change without a new meta; files with no valid meta).
   */
  private listed:
    { dirMtimeMs: number; settled: boolean; metas: Map<string, TranscriptMeta>; recheck: string[] } | undefined;

  constructor(
    dataDir: string,
    seeds: Record<string, string> = DEMO_TRANSCRIPTS,
    readonly limits: TranscriptLimits = transcriptLimits(),
  ) {
    this.dir = path.join(dataDir, "transcripts");
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR });
    // A store made before files were private: close it now.
    chmodSync(this.dir, PRIVATE_DIR);
    for (const f of readdirSync(this.dir)) {
      const file = path.join(this.dir, f);
      if (f.startsWith(".upload-")) {
        rmSync(file, { force: true }); // an upload cut short by a crash
        continue;
      }
      if (statSync(file).mode & 0o077) chmodSync(file, PRIVATE_FILE);
    }
    // Shipped demos, so a machine without credentials has something to replay.
    for (const [id, file] of Object.entries(seeds)) {
      if (!existsSync(this.file(id)) && existsSync(file))
        writeFileSync(this.file(id), readFileSync(file), { mode: PRIVATE_FILE });
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
    this.listed = undefined;
    const target = this.metaFile(meta.id);
    writeFileSync(`${target}.tmp`, JSON.stringify(meta, null, 2), { mode: PRIVATE_FILE });
    renameSync(`${target}.tmp`, target);
  }

  /**
   * Rebuilds the meta of a file from its content (after a crash, or for an
   * import), reading it as a stream: memory stays bounded by the longest line,
   * whatever the file's size. Throws TranscriptError for an invalid file.
   */
  private scan(
    id: string,
    previous?: TranscriptMeta,
  ): { meta: TranscriptMeta; truncated: boolean; lines: number; hash: string } {
    this.scans++;
    const hash = createHash("sha256");
    let lines = 0;
    const reader = new TranscriptLines();
    let header: TranscriptHeader | undefined;
    let agentInfo: AgentInfoEvent | undefined;
    let frames = 0;
    let redactions = 0;
    let turns = 0;
    let bytes = 0;
    // Strict: the first bad line refuses the file (an import is refused; a listing leaves it out).
    const take = (read: TranscriptLine[]) => {
      for (const { value, error } of read) {
        if (error) throw error;
        if (value.type === "header") header = value;
        else if (value.type === "agent-info") agentInfo ??= value;
        else if (value.type === "frame") {
          frames++;
          if (isTurnStart(protocolOf(header?.agent), value)) turns++;
        }
        if ((value.type === "frame" || value.type === "stderr") && value.redacted) redactions += value.redacted;
      }
    };
    const fd = openSync(this.file(id), "r");
    try {
      const chunk = Buffer.alloc(SCAN_CHUNK);
      for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
        bytes += n;
        hash.update(chunk.subarray(0, n));
        for (let at = chunk.indexOf(0x0a); at !== -1 && at < n; at = chunk.indexOf(0x0a, at + 1)) lines++;
        take(reader.push(chunk.subarray(0, n)));
      }
      take(reader.end());
    } finally {
      closeSync(fd);
    }
    if (!header) throw new TranscriptError(1, "no header");
    const agentName = (agentInfo?.agentInfo as { name?: string } | undefined)?.name || undefined;
    const meta: TranscriptMeta = {
      id,
      title:
        previous?.title ?? header.title ?? `${header.agent.profile} ${header.createdAt.slice(0, 19).replace("T", " ")}`,
      createdAt: header.createdAt,
      profile: header.agent.profile,
      agentName,
      kind: previous?.kind ?? header.kind ?? inferKind({ id, tapped: header.tapped }, id in DEMO_TRANSCRIPTS),
      ...(header.tapped ? { tapped: true } : {}),
      ...(header.agent.protocol ? { protocol: header.agent.protocol } : {}),
      turns,
      frames,
      bytes,
      redactions,
      recording: false,
      ...(previous?.renamed ? { renamed: true } : {}),
      ...(previous?.uploaded ? { uploaded: true } : {}),
      ...(previous?.contentHash ? { contentHash: previous.contentHash } : {}),
      ...(previous?.shareToken && previous.sharedAt
        ? {
            shareToken: previous.shareToken,
            sharedAt: previous.sharedAt,
            ...(previous.shareShowsCommand ? { shareShowsCommand: true } : {}),
          }
        : {}),
    };
    return { meta, truncated: reader.truncated, lines, hash: hash.digest("hex") };
  }

  /** A scan, remembered by the file's size and mtime: an unchanged file (valid or not) is not read again. */
  private rescan(id: string, previous?: TranscriptMeta): TranscriptMeta | undefined {
    const { size, mtimeMs } = statSync(this.file(id));
    const known = this.scanned.get(id);
    if (known && known.size === size && known.mtimeMs === mtimeMs) return known.meta;
    let meta: TranscriptMeta | undefined;
    try {
      meta = this.scan(id, previous).meta;
    } catch {
      meta = undefined;
    }
    this.scanned.set(id, { size, mtimeMs, meta });
    return meta;
  }

  /**
   * The meta file as it is, unchecked (undefined if missing or unreadable); kept parsed while its
   * size and mtime stay the same, so listing thousands of transcripts reads only what changed.
   */
  storedMeta(id: string): TranscriptMeta | undefined {
    try {
      const file = this.metaFile(id);
      // writeMeta renames a new file into place: a new inode each time.
      const { size, mtimeMs, ino } = statSync(file);
      const known = this.metas.get(id);
      if (known && known.ino === ino && known.size === size && known.mtimeMs === mtimeMs) return { ...known.meta };
      const meta = JSON.parse(readFileSync(file, "utf8")) as TranscriptMeta;
      this.metas.set(id, { ino, size, mtimeMs, meta });
      return { ...meta };
    } catch {
      this.metas.delete(id);
      return undefined;
    }
  }

  meta(id: string): TranscriptMeta | undefined {
    if (!this.exists(id)) return undefined;
    let meta = this.storedMeta(id);
    if (meta?.shareToken && !meta.sharedAt) {
      // Before share links were made on request every transcript had one: those are revoked.
      const { shareToken: _revoked, ...rest } = meta;
      meta = rest;
      if (!meta.recording) this.writeMeta(meta);
    }
    if (meta && (!meta.recording || this.writing(id, meta))) {
      const kind = inferKind(meta, id in DEMO_TRANSCRIPTS);
      return meta.recording ? { ...meta, kind, bytes: statSync(this.file(id)).size } : { ...meta, kind };
    }
    // Missing meta, or a recording whose writer is gone (crash): recount.
    try {
      const fresh = this.rescan(id, meta);
      if (fresh) this.writeMeta(fresh);
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
    return writer.pid !== self.pid && isAlive(writer.pid);
  }

  /** Every listed transcript's id, from the file names. */
  private ids(): string[] {
    return readdirSync(this.dir)
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => f.slice(0, -".jsonl".length))
      .filter((id) => !this.unlisted.has(id));
  }

  /**
   * Every listed transcript, newest first. Answered from memory while the directory's mtime is
   * unchanged: every change to the store, by this process or another, renames or removes a file
   * there (writeMeta renames a new meta into place); only recordings and files with no valid meta
   * are asked again each time. (A meta file edited in place by hand is seen once the directory changes.)
   */
  list(filter: ListFilter = {}): TranscriptMeta[] {
    const dirMtimeMs = statSync(this.dir).mtimeMs;
    let listed = this.listed;
    if (!listed || !listed.settled || listed.dirMtimeMs !== dirMtimeMs) {
      this.listReads++;
      const readAt = Date.now();
      const metas = new Map<string, TranscriptMeta>();
      const recheck: string[] = [];
      const ids = readdirSync(this.dir)
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => f.slice(0, -".jsonl".length));
      for (const id of ids) {
        const meta = this.meta(id);
        if (meta) metas.set(id, meta);
        if (!meta || meta.recording) recheck.push(id);
      }
      const sorted = new Map([...metas].sort(([, a], [, b]) => b.createdAt.localeCompare(a.createdAt)));
      // meta() may have written a meta (a crashed recording recounted): then the next list reads again.
      listed = { dirMtimeMs, settled: readAt - dirMtimeMs > racyMs(dirMtimeMs), metas: sorted, recheck };
      this.listed = listed;
    } else {
      let added = false;
      for (const id of listed.recheck) {
        const meta = this.meta(id);
        if (meta && !listed.metas.has(id)) added = true;
        if (meta) listed.metas.set(id, meta);
        else listed.metas.delete(id);
      }
      if (added)
        listed.metas = new Map([...listed.metas].sort(([, a], [, b]) => b.createdAt.localeCompare(a.createdAt)));
    }
    const out: TranscriptMeta[] = [];
    for (const [id, meta] of listed.metas)
      if (!this.unlisted.has(id) && (filter.owner === undefined || meta.owner === filter.owner)) out.push(meta);
    return out;
  }

  /**
   * The ids of the newest `limit` listed transcripts but the shipped demos, newest first, from
   * the names alone (an id starts with its creation time): no meta is read, however many there are.
   */
  newestIds(limit: number): string[] {
    return this.ids()
      .filter((id) => !(id in DEMO_TRANSCRIPTS))
      .sort()
      .reverse()
      .slice(0, limit);
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
  stream(
    id: string,
    options: { hideLocal?: boolean; start?: number; maxHeader?: number } = {},
  ): { header: string; rest: Readable | undefined } | undefined {
    const plain = this.plainStream(id, options.start, options.maxHeader);
    if (!plain || !options.hideLocal) return plain;
    const header = JSON.parse(plain.header) as TranscriptHeader;
    const hide = localPathHider(header.agent.cwd);
    const shown = serialize({
      ...header,
      agent: { profile: header.agent.profile, command: "(hidden)", args: [], cwd: HIDDEN_WORKSPACE },
    });
    // pipeline: a read error or an early close on either side ends both.
    return { header: shown, rest: plain.rest ? pipeline(plain.rest, hide, () => {}) : undefined };
  }

  /**
   * `start`: where the rest begins, a line's start past the header (the MCP server seeks to a
   * frame). `maxHeader`: bytes the header line may take (the MCP server's read budget); past it,
   * an error rather than reading a header of any length whole.
   */
  private plainStream(
    id: string,
    start = 0,
    maxHeader = Infinity,
  ): { header: string; rest: ReadStream | undefined } | undefined {
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
        if (read >= maxHeader) throw new Error(`its header line is longer than ${Math.round(maxHeader / 1024)} KiB`);
        const chunk = Buffer.alloc(Math.min(64 * 1024, size - read));
        const n = readSync(fd, chunk, 0, chunk.length, read);
        if (n === 0) break;
        const at = chunk.subarray(0, n).indexOf(0x0a);
        chunks.push(chunk.subarray(0, n));
        if (at !== -1) nl = read + at;
        read += n;
      }
      const head = Buffer.concat(chunks);
      const from = Math.max(nl + 1, start);
      if (nl === -1 || from >= size) {
        closeSync(fd);
        return {
          header: this.titled(meta, head.subarray(0, nl === -1 ? head.length : nl).toString("utf8")),
          rest: undefined,
        };
      }
      return {
        header: this.titled(meta, head.subarray(0, nl).toString("utf8")),
        rest: createReadStream("", { fd, start: from, end: size - 1 }),
      };
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** The header's workspace path (for hiding it), read from the file's first line; "" when unknown. */
  workspaceOf(id: string): string {
    const plain = this.exists(id) ? this.plainStream(id) : undefined;
    plain?.rest?.destroy();
    try {
      const cwd: unknown = plain && (JSON.parse(plain.header) as TranscriptHeader).agent.cwd;
      return typeof cwd === "string" ? cwd : "";
    } catch {
      return "";
    }
  }

  private titled(meta: TranscriptMeta, headerLine: string): string {
    return serialize({ ...(JSON.parse(headerLine) as TranscriptHeader), title: meta.title });
  }

  /** Tags a transcript with what it turned out to be part of (a comparison's side). */
  tag(id: string, kind: TranscriptKind): TranscriptMeta | undefined {
    return this.update(id, (meta) => ({ ...meta, kind }));
  }

  /** Records who made it (a named token's owner, server/http/identities.ts). */
  own(id: string, owner: string): TranscriptMeta | undefined {
    return this.update(id, (meta) => (meta.owner === owner ? meta : { ...meta, owner }));
  }

  rename(id: string, title: string): TranscriptMeta | undefined {
    return this.update(id, (meta) => ({ ...meta, title, renamed: true }));
  }

  /**
   * A share link for the transcript: made now if it has none. `showCommand`
   * (when given) says whether the share page may show the agent's command
   * line and local paths; they are hidden unless the sharer chose so.
   */
  share(id: string, options: { showCommand?: boolean } = {}): TranscriptMeta | undefined {
    return this.update(id, (meta) => {
      const { shareShowsCommand: _old, ...rest } = meta;
      const show = options.showCommand ?? meta.shareShowsCommand ?? false;
      if (meta.shareToken && show === (meta.shareShowsCommand ?? false)) return meta;
      return {
        ...rest,
        shareToken: meta.shareToken ?? randomBytes(18).toString("base64url"),
        sharedAt: meta.sharedAt ?? new Date().toISOString(),
        ...(show ? { shareShowsCommand: true } : {}),
      };
    });
  }

  /** Revokes the share link: it answers 404 from now on; sharing again makes a new one. */
  unshare(id: string): TranscriptMeta | undefined {
    return this.update(id, ({ shareToken: _token, sharedAt: _at, shareShowsCommand: _show, ...meta }) => meta);
  }

  private update(id: string, change: (meta: TranscriptMeta) => TranscriptMeta): TranscriptMeta | undefined {
    const meta = this.meta(id);
    if (!meta) return undefined;
    const next = change(meta);
    if (next !== meta) {
      this.writeMeta(next);
      this.index?.changed(id);
    }
    return next;
  }

  delete(id: string): boolean {
    if (!this.exists(id) || this.live.has(id) || this.meta(id)?.recording) return false;
    rmSync(this.file(id), { force: true });
    rmSync(this.metaFile(id), { force: true });
    this.listed = undefined;
    this.scanned.delete(id);
    this.metas.delete(id);
    this.index?.removed(id);
    return true;
  }

  /**
   * Keeps the store within its total size and count: drops the oldest
   * transcripts first, never one that is being recorded, shared, renamed or
   * uploaded by the user, nor the shipped demo. Returns the ids dropped.
   */
  prune(): string[] {
    const { totalBytes, count } = this.limits;
    if (totalBytes === 0 && count === 0) return [];
    const all = this.list();
    let bytes = all.reduce((sum, m) => sum + m.bytes, 0);
    let left = all.length;
    const dropped: string[] = [];
    const over = () => (count > 0 && left > count) || (totalBytes > 0 && bytes > totalBytes);
    for (const m of [...all].reverse()) {
      if (!over()) break;
      if (m.recording || m.shareToken || m.renamed || m.uploaded || m.id in DEMO_TRANSCRIPTS || this.pinned.has(m.id))
        continue;
      if (!this.delete(m.id)) continue;
      dropped.push(m.id);
      bytes -= m.bytes;
      left--;
    }
    return dropped;
  }

  /**
   * Stores an uploaded file (already in this store's directory, see tempFile)
   * once it has been read through as a valid transcript; else removes it and
   * throws TranscriptError naming the line. Nothing invalid is kept.
   */
  import(tempFile: string): TranscriptMeta {
    const id = this.newId();
    try {
      renameSync(tempFile, this.file(id));
      chmodSync(this.file(id), PRIVATE_FILE);
      const { meta, truncated, lines, hash } = this.scan(id, undefined);
      if (truncated) throw new TranscriptError(lines + 1, "the last line is cut off");
      // The same bytes imported before: kept (the user may mean it), but they are told.
      const same = this.list().find((m) => m.id !== id && m.contentHash === hash);
      const stored: TranscriptMeta = { ...meta, kind: "upload", uploaded: true, contentHash: hash };
      this.writeMeta(stored);
      this.index?.changed(id);
      this.prune();
      return same ? { ...stored, duplicateOf: { id: same.id, title: same.title } } : stored;
    } catch (err) {
      rmSync(this.file(id), { force: true });
      rmSync(tempFile, { force: true });
      throw err;
    }
  }

  /** A path in the store's directory for an upload in progress (same filesystem: the import is a rename). */
  tempFile(): string {
    return path.join(this.dir, `.upload-${randomBytes(8).toString("hex")}.tmp`);
  }
}
