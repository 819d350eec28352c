/**
 * Saved comparisons under the data directory (`<data>/comparisons/<id>.json`):
 * each links the two transcripts one prompt recorded on two sides. Sharing a
 * comparison shares both transcripts (their own share tokens) and gives the
 * comparison a token of its own for the public link.
 *
 * A comparison's link is bound to the two transcript links that existed when
 * it was made: its token ends with a digest of both transcripts' share tokens
 * (`<random>.<digest>`). Revoking either transcript's link revokes it for good;
 * sharing that transcript again makes a new transcript token, which the old
 * comparison link does not match (sharing the comparison again makes a new one).
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  COMPARISON_FORMAT,
  COMPARISON_VERSION,
  comparisonRecord,
  isComparisonId,
  type ComparisonInput,
  type ComparisonRecord,
  type SharedComparison,
} from "../../lib/contracts/compare-format";
import { tokenMatches } from "../tokens";
import { PRIVATE_FILE, type TranscriptStore } from "./transcript-store";

const PRIVATE_DIR = 0o700;

export class ComparisonStore {
  readonly dir: string;

  constructor(
    dataDir: string,
    readonly transcripts: TranscriptStore,
  ) {
    this.dir = path.join(dataDir, "comparisons");
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR });
  }

  private file(id: string): string {
    if (!isComparisonId(id)) throw new Error(`bad comparison id: ${id.slice(0, 80)}`);
    return path.join(this.dir, `${id}.json`);
  }

  private write(record: ComparisonRecord): ComparisonRecord {
    const tmp = `${this.file(record.id)}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: PRIVATE_FILE });
    renameSync(tmp, this.file(record.id));
    return record;
  }

  /** Keeps a comparison; both transcripts must exist. Answers undefined naming the missing one otherwise. */
  save(input: ComparisonInput, now = new Date()): ComparisonRecord | { missing: string } {
    for (const s of input.sides) if (!this.transcripts.exists(s.transcriptId)) return { missing: s.transcriptId };
    // Listed as a comparison's, not as two sessions of their own.
    for (const s of input.sides) this.transcripts.tag(s.transcriptId, "compare");
    const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
    return this.write({
      format: COMPARISON_FORMAT,
      version: COMPARISON_VERSION,
      id: `${stamp}-${randomBytes(4).toString("hex")}`,
      createdAt: now.toISOString(),
      ...input,
    });
  }

  /**
   * The comparison as saved, but shared only while its link is bound to both
   * transcripts' current links: one whose transcript link was revoked since
   * (or made before links were bound) reads as not shared.
   */
  get(id: string): ComparisonRecord | undefined {
    if (!isComparisonId(id)) return undefined;
    let record: ComparisonRecord;
    try {
      const parsed = comparisonRecord.safeParse(JSON.parse(readFileSync(this.file(id), "utf8")));
      if (!parsed.success || parsed.data.id !== id) return undefined;
      record = parsed.data;
    } catch {
      return undefined;
    }
    if (record.shareToken && !this.bound(record.shareToken, record)) {
      const { shareToken: _revoked, sharedAt: _at, ...rest } = record;
      return rest;
    }
    return record;
  }

  /** The digest of both transcripts' current share tokens; undefined while either is not shared. */
  private grants(record: ComparisonRecord, tokens?: Array<string | undefined>): string | undefined {
    const current = tokens ?? record.sides.map((s) => this.transcripts.meta(s.transcriptId)?.shareToken);
    if (current.some((t) => !t)) return undefined;
    return createHash("sha256").update(current.join("\n")).digest("base64url").slice(0, 22);
  }

  /** Whether a comparison token was made for the transcript links that are current now. */
  private bound(shareToken: string, record: ComparisonRecord): boolean {
    const dot = shareToken.lastIndexOf(".");
    const grants = this.grants(record);
    return dot > 0 && grants !== undefined && shareToken.slice(dot + 1) === grants;
  }

  /** Newest first; files that do not parse are left out. */
  list(): ComparisonRecord[] {
    return readdirSync(this.dir)
      .filter((f) => f.endsWith(".json") && isComparisonId(f.slice(0, -5)))
      .sort()
      .reverse()
      .flatMap((f) => this.get(f.slice(0, -5)) ?? []);
  }

  delete(id: string): boolean {
    if (!this.get(id)) return false;
    rmSync(this.file(id), { force: true });
    return true;
  }

  /**
   * Shares both transcripts and the comparison; answers undefined when a
   * transcript is gone. The link stays the same while both transcript links
   * do; otherwise (one was revoked since) it is a new one.
   */
  share(id: string): ComparisonRecord | undefined {
    const record = this.get(id);
    if (!record) return undefined;
    const tokens: string[] = [];
    for (const s of record.sides) {
      const meta = this.transcripts.share(s.transcriptId);
      if (!meta?.shareToken) return undefined;
      tokens.push(meta.shareToken);
    }
    const grants = this.grants(record, tokens)!;
    if (record.shareToken?.endsWith(`.${grants}`)) return record;
    return this.write({
      ...record,
      shareToken: `${randomBytes(18).toString("base64url")}.${grants}`,
      sharedAt: new Date().toISOString(),
    });
  }

  /** Revokes the comparison's link and both transcripts' links. */
  unshare(id: string): ComparisonRecord | undefined {
    const record = this.get(id);
    if (!record) return undefined;
    for (const s of record.sides) this.transcripts.unshare(s.transcriptId);
    const { shareToken: _token, sharedAt: _at, ...rest } = record;
    return this.write(rest);
  }

  /**
   * The public view of a shared comparison: undefined unless the token matches
   * and both transcripts still have the links the comparison was shared with.
   */
  shared(id: string, token: string | null): SharedComparison | undefined {
    // get() leaves out a link whose transcript links changed since.
    const record = this.get(id);
    if (!record?.shareToken || !tokenMatches(token, record.shareToken)) return undefined;
    const tokens = record.sides.map((s) => ({
      id: s.transcriptId,
      token: this.transcripts.meta(s.transcriptId)?.shareToken,
    }));
    if (tokens.some((t) => !t.token)) return undefined;
    const { shareToken: _token, ...comparison } = record;
    return { comparison, transcripts: tokens as SharedComparison["transcripts"] };
  }
}

const beside = new WeakMap<TranscriptStore, ComparisonStore>();

/** The comparison store of the data directory a transcript store lives in. */
export function comparisonStoreBeside(transcripts: TranscriptStore): ComparisonStore {
  let store = beside.get(transcripts);
  if (!store) {
    store = new ComparisonStore(path.dirname(transcripts.dir), transcripts);
    beside.set(transcripts, store);
  }
  return store;
}
