/**
 * Probe reports kept under the data directory, next to transcripts
 * (`<data>/probes/<id>.json`): listed, read back and deleted by id.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ProbeReport } from "../../lib/contracts/reports";
import { parseReport, reportToJson, type ProbeReportMeta } from "../../lib/features/probe/export";
import { PRIVATE_FILE, type TranscriptStore } from "./transcript-store";

const ID = /^\d{8}-\d{6}-[0-9a-f]{8}$/;
/** Reports hold what agents said and ran: the user's only, as transcripts are. */
const PRIVATE_DIR = 0o700;

export class ProbeStore {
  readonly dir: string;
  /** Told of each report kept (the team library copies it: server/stores/pg-mirror.ts). */
  onSaved: ((id: string) => void) | undefined;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, "probes");
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR });
    // A store made before reports were private: close it now.
    chmodSync(this.dir, PRIVATE_DIR);
    for (const f of readdirSync(this.dir)) {
      const file = path.join(this.dir, f);
      const stats = lstatSync(file);
      if (stats.isFile() && stats.mode & 0o077) chmodSync(file, PRIVATE_FILE);
    }
  }

  static isId(id: string): boolean {
    return ID.test(id);
  }

  private file(id: string): string {
    if (!ProbeStore.isId(id)) throw new Error(`bad probe report id: ${id.slice(0, 80)}`);
    return path.join(this.dir, `${id}.json`);
  }

  /** Keeps a report; answers it with its new id. */
  save(report: ProbeReport): ProbeReport & { id: string } {
    const stamp = new Date(report.startedAt);
    const when = (Number.isNaN(stamp.getTime()) ? new Date() : stamp)
      .toISOString()
      .replace(/[-:]/g, "")
      .replace("T", "-")
      .slice(0, 15);
    const id = `${when}-${randomBytes(4).toString("hex")}`;
    const kept = { ...report, id };
    // Written whole, then renamed: a reader never sees half a report.
    const tmp = `${this.file(id)}.tmp`;
    writeFileSync(tmp, reportToJson(kept), { mode: PRIVATE_FILE, flag: "wx" });
    renameSync(tmp, this.file(id));
    this.onSaved?.(id);
    return kept;
  }

  get(id: string): ProbeReport | undefined {
    if (!ProbeStore.isId(id)) return undefined;
    try {
      return { ...parseReport(readFileSync(this.file(id), "utf8")), id };
    } catch {
      return undefined;
    }
  }

  /** Newest first; files that do not parse are left out. */
  list(): ProbeReportMeta[] {
    return readdirSync(this.dir)
      .filter((f) => f.endsWith(".json") && ProbeStore.isId(f.slice(0, -5)))
      .sort()
      .reverse()
      .flatMap((f) => {
        const report = this.get(f.slice(0, -5));
        return report
          ? [
              {
                id: report.id!,
                profile: report.profile,
                agent: report.agent,
                startedAt: report.startedAt,
                durationMs: report.durationMs,
                checks: report.rows.length,
              },
            ]
          : [];
      });
  }

  delete(id: string): boolean {
    if (!ProbeStore.isId(id)) return false;
    try {
      rmSync(this.file(id));
      return true;
    } catch {
      return false;
    }
  }
}

const beside = new WeakMap<TranscriptStore, ProbeStore>();

/** The probe store of the data directory a transcript store lives in. */
export function probeStoreBeside(transcripts: TranscriptStore): ProbeStore {
  let store = beside.get(transcripts);
  if (!store) {
    store = new ProbeStore(path.dirname(transcripts.dir));
    beside.set(transcripts, store);
  }
  return store;
}
