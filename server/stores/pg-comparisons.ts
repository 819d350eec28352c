/**
 * Saved comparisons in the team library (PostgreSQL), with the file store's rules
 * (server/transcripts/comparison-links.ts).
 */
import {
  comparisonRecord,
  isComparisonId,
  type ComparisonInput,
  type ComparisonRecord,
  type SharedComparison,
} from "../../lib/contracts/compare-format";
import { linked, newComparison, sharedView, unlinked, withCurrentLink } from "../transcripts/comparison-links";
import type { PgStore } from "./pg-store";

export class PgComparisons {
  constructor(private readonly db: PgStore) {}

  private async write(record: ComparisonRecord): Promise<ComparisonRecord> {
    await this.db.pool.query(
      "INSERT INTO comparisons (id, record) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET record = EXCLUDED.record",
      [record.id, record],
    );
    return record;
  }

  /** Keeps a comparison; both transcripts must be in the library. Answers which one is missing otherwise. */
  async save(
    input: ComparisonInput,
    owner?: string,
    now = new Date(),
  ): Promise<ComparisonRecord | { missing: string }> {
    for (const s of input.sides) if (!(await this.db.exists(s.transcriptId))) return { missing: s.transcriptId };
    // Listed as a comparison's, not as two sessions of their own.
    for (const s of input.sides) await this.db.tag(s.transcriptId, "compare");
    return this.write(newComparison(input, now, owner));
  }

  /** As saved, but shared only while its link is bound to both transcripts' current links. */
  async get(id: string): Promise<ComparisonRecord | undefined> {
    if (!isComparisonId(id)) return undefined;
    const { rows } = await this.db.pool.query<{ record: unknown }>("SELECT record FROM comparisons WHERE id = $1", [
      id,
    ]);
    const parsed = comparisonRecord.safeParse(rows[0]?.record);
    if (!parsed.success) return undefined;
    return withCurrentLink(parsed.data, await this.linkTokens(parsed.data));
  }

  /** Both transcripts' current share tokens. */
  private linkTokens(record: ComparisonRecord): Promise<Array<string | undefined>> {
    return Promise.all(record.sides.map(async (s) => (await this.db.meta(s.transcriptId))?.shareToken));
  }

  /** Newest first. */
  async list(): Promise<ComparisonRecord[]> {
    const { rows } = await this.db.pool.query<{ id: string }>("SELECT id FROM comparisons ORDER BY id DESC");
    const out: ComparisonRecord[] = [];
    for (const { id } of rows) {
      const record = await this.get(id);
      if (record) out.push(record);
    }
    return out;
  }

  async delete(id: string): Promise<boolean> {
    if (!isComparisonId(id)) return false;
    return (await this.db.pool.query("DELETE FROM comparisons WHERE id = $1", [id])).rowCount === 1;
  }

  /** Shares both transcripts and the comparison; undefined when a transcript is gone. */
  async share(id: string): Promise<ComparisonRecord | undefined> {
    const record = await this.get(id);
    if (!record) return undefined;
    const tokens: string[] = [];
    for (const s of record.sides) {
      const meta = await this.db.share(s.transcriptId);
      if (!meta?.shareToken) return undefined;
      tokens.push(meta.shareToken);
    }
    const shared = linked(record, tokens);
    return shared === record ? record : this.write(shared);
  }

  /** Revokes the comparison's link and both transcripts' links. */
  async unshare(id: string): Promise<ComparisonRecord | undefined> {
    const record = await this.get(id);
    if (!record) return undefined;
    for (const s of record.sides) await this.db.unshare(s.transcriptId);
    return this.write(unlinked(record));
  }

  /** The public view: undefined unless the token matches and both transcript links are the ones it was shared with. */
  async shared(id: string, token: string | null): Promise<SharedComparison | undefined> {
    const record = await this.get(id);
    return sharedView(record, token, record ? await this.linkTokens(record) : []);
  }
}
