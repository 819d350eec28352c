/**
 * Saved comparisons under the data directory (`<data>/comparisons/<id>.json`):
 * each links the two transcripts one prompt recorded on two sides. Its rules (links bound to
 * both transcripts' links) are in comparison-links.ts, shared with the team library's store.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  comparisonRecord,
  isComparisonId,
  type ComparisonInput,
  type ComparisonRecord,
  type SharedComparison,
} from "../../lib/contracts/compare-format";
import { linked, newComparison, sharedView, unlinked, withCurrentLink } from "./comparison-links";
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
  save(input: ComparisonInput, owner?: string, now = new Date()): ComparisonRecord | { missing: string } {
    for (const s of input.sides) if (!this.transcripts.exists(s.transcriptId)) return { missing: s.transcriptId };
    // Listed as a comparison's, not as two sessions of their own.
    for (const s of input.sides) this.transcripts.tag(s.transcriptId, "compare");
    return this.write(newComparison(input, now, owner));
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
    return withCurrentLink(record, this.linkTokens(record));
  }

  /** Both transcripts' current share tokens. */
  private linkTokens(record: ComparisonRecord): Array<string | undefined> {
    return record.sides.map((s) => this.transcripts.meta(s.transcriptId)?.shareToken);
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
    const shared = linked(record, tokens);
    return shared === record ? record : this.write(shared);
  }

  /** Revokes the comparison's link and both transcripts' links. */
  unshare(id: string): ComparisonRecord | undefined {
    const record = this.get(id);
    if (!record) return undefined;
    for (const s of record.sides) this.transcripts.unshare(s.transcriptId);
    return this.write(unlinked(record));
  }

  /**
   * The public view of a shared comparison: undefined unless the token matches
   * and both transcripts still have the links the comparison was shared with.
   */
  shared(id: string, token: string | null): SharedComparison | undefined {
    // get() leaves out a link whose transcript links changed since.
    const record = this.get(id);
    return sharedView(record, token, record ? this.linkTokens(record) : []);
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
