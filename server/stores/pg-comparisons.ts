/**
 * Saved comparisons in the team library (PostgreSQL), with the file store's rules
 * (server/transcripts/comparison-store.ts): a comparison links two transcripts; sharing it shares
 * both (their own links, kept in the database) and gives it a token of its own, bound to both
 * transcript links by a digest (`<random>.<digest>`), so revoking either link revokes it for good.
 */
import { createHash, randomBytes } from "node:crypto";
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
  async save(input: ComparisonInput, now = new Date()): Promise<ComparisonRecord | { missing: string }> {
    for (const s of input.sides) if (!(await this.db.exists(s.transcriptId))) return { missing: s.transcriptId };
    // Listed as a comparison's, not as two sessions of their own.
    for (const s of input.sides) await this.db.tag(s.transcriptId, "compare");
    const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
    return this.write({
      format: COMPARISON_FORMAT,
      version: COMPARISON_VERSION,
      id: `${stamp}-${randomBytes(4).toString("hex")}`,
      createdAt: now.toISOString(),
      ...input,
    });
  }

  /** As saved, but shared only while its link is bound to both transcripts' current links. */
  async get(id: string): Promise<ComparisonRecord | undefined> {
    if (!isComparisonId(id)) return undefined;
    const { rows } = await this.db.pool.query<{ record: unknown }>("SELECT record FROM comparisons WHERE id = $1", [
      id,
    ]);
    const parsed = comparisonRecord.safeParse(rows[0]?.record);
    if (!parsed.success) return undefined;
    const record = parsed.data;
    if (record.shareToken && !(await this.bound(record.shareToken, record))) {
      const { shareToken: _revoked, sharedAt: _at, ...rest } = record;
      return rest;
    }
    return record;
  }

  private async grants(record: ComparisonRecord, tokens?: Array<string | undefined>): Promise<string | undefined> {
    const current =
      tokens ?? (await Promise.all(record.sides.map(async (s) => (await this.db.meta(s.transcriptId))?.shareToken)));
    if (current.some((t) => !t)) return undefined;
    return createHash("sha256").update(current.join("\n")).digest("base64url").slice(0, 22);
  }

  private async bound(shareToken: string, record: ComparisonRecord): Promise<boolean> {
    const dot = shareToken.lastIndexOf(".");
    const grants = await this.grants(record);
    return dot > 0 && grants !== undefined && shareToken.slice(dot + 1) === grants;
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
    const grants = (await this.grants(record, tokens))!;
    if (record.shareToken?.endsWith(`.${grants}`)) return record;
    return this.write({
      ...record,
      shareToken: `${randomBytes(18).toString("base64url")}.${grants}`,
      sharedAt: new Date().toISOString(),
    });
  }

  /** Revokes the comparison's link and both transcripts' links. */
  async unshare(id: string): Promise<ComparisonRecord | undefined> {
    const record = await this.get(id);
    if (!record) return undefined;
    for (const s of record.sides) await this.db.unshare(s.transcriptId);
    const { shareToken: _token, sharedAt: _at, ...rest } = record;
    return this.write(rest);
  }

  /** The public view: undefined unless the token matches and both transcript links are the ones it was shared with. */
  async shared(id: string, token: string | null): Promise<SharedComparison | undefined> {
    const record = await this.get(id);
    if (!record?.shareToken || !tokenMatches(token, record.shareToken)) return undefined;
    const tokens = await Promise.all(
      record.sides.map(async (s) => ({ id: s.transcriptId, token: (await this.db.meta(s.transcriptId))?.shareToken })),
    );
    if (tokens.some((t) => !t.token)) return undefined;
    const { shareToken: _token, ...comparison } = record;
    return { comparison, transcripts: tokens as SharedComparison["transcripts"] };
  }
}
