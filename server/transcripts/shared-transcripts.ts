/**
 * A transcript wherever it was recorded. With `serve --database` the team library (PostgreSQL)
 * holds every instance's recordings, so what reads one whole (export, replay, re-run) asks it
 * first, with its current title and its owner's changes; this instance's files answer what the
 * database does not hold yet (a copy still under way) and everything on a server without one.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { newRunFolder } from "../models/offline-model";
import type { TranscriptMeta } from "../../lib/contracts/transcript-meta";
import { DEMO_TRANSCRIPT_ID, TranscriptStore } from "./transcript-store";
import { RelayFailure } from "../relay-failure";

/** The team library as read here (server/stores/pg-store.ts's PgStore), once `ready` (migrated). */
export interface TeamLibrary {
  readonly ready: Promise<void>;
  list(): Promise<TranscriptMeta[]>;
  meta(id: string): Promise<TranscriptMeta | undefined>;
  /** The JSONL as recorded, with the current title in its header. */
  read(id: string): Promise<string | undefined>;
}

/** Where copies of transcripts recorded elsewhere are kept while a file of one is read, in the data directory. */
export const TEAM_COPIES = "team-copies";

export class SharedTranscripts {
  constructor(
    readonly local: TranscriptStore,
    readonly team?: TeamLibrary,
  ) {}

  async meta(id: string): Promise<TranscriptMeta | undefined> {
    if (!TranscriptStore.isId(id)) return undefined;
    return (await this.fromTeam(id, (t) => t.meta(id))) ?? this.local.meta(id);
  }

  /** The JSONL as recorded, with the current title in its header. */
  async read(id: string): Promise<string | undefined> {
    if (!TranscriptStore.isId(id)) return undefined;
    return (await this.fromTeam(id, (t) => t.read(id))) ?? (this.local.exists(id) ? this.local.read(id) : undefined);
  }

  /** The newest `limit` transcripts' metas (the shipped demo aside), the team's when there is one. */
  async newest(limit: number): Promise<TranscriptMeta[]> {
    if (!this.team) {
      return this.local
        .newestIds(limit)
        .map((id) => this.local.meta(id))
        .filter((m): m is TranscriptMeta => m !== undefined);
    }
    try {
      await this.team.ready;
      return (await this.team.list()).filter((m) => m.id !== DEMO_TRANSCRIPT_ID).slice(0, limit);
    } catch {
      // The database away (restarted, unreachable): relay:info still answers, with this instance's.
      return new SharedTranscripts(this.local).newest(limit);
    }
  }

  /**
   * The transcript and a file holding it, for what reads a file (the replay agent, the OTLP
   * export): this instance's own when it has the whole recording, else a copy of the database's in
   * a folder of its own under `scratchRoot` (TEAM_COPIES in the data directory; `scratch`: remove
   * it once done).
   */
  async file(id: string, scratchRoot: string): Promise<{ file: string; jsonl: string; scratch?: string } | undefined> {
    if (!TranscriptStore.isId(id)) return undefined;
    if (this.local.exists(id) && !this.local.meta(id)?.recording) {
      const jsonl = this.local.read(id);
      if (jsonl !== undefined) return { file: this.local.file(id), jsonl };
    }
    const jsonl = await this.read(id);
    if (jsonl === undefined) return undefined;
    const scratch = newRunFolder(scratchRoot);
    const file = path.join(scratch, `${id}.jsonl`);
    writeFileSync(file, jsonl, { mode: 0o600 });
    return { file, jsonl, scratch };
  }

  /**
   * The team's answer; undefined without a team or when it does not hold the transcript. With the
   * database away, this instance's file answers if it has one; else the failure is said.
   */
  private async fromTeam<T>(id: string, ask: (team: TeamLibrary) => Promise<T | undefined>) {
    if (!this.team || id === DEMO_TRANSCRIPT_ID) return undefined;
    try {
      await this.team.ready;
      return await ask(this.team);
    } catch (err) {
      if (this.local.exists(id)) return undefined;
      // Whoever asked (a person's re-run, replay or export) is told it failed; where the database is
      // (its address, name, user, in the driver's words) is the operator's, in the log.
      console.error(`database: transcript ${id}: ${(err as Error).message}`);
      throw new RelayFailure({
        code: "internal",
        message: `cannot read transcript ${id} from the team library (--database): the database did not answer (the relay's log says why)`,
      });
    }
  }
}
