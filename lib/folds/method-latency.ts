/**
 * Latency per method and direction: how many requests, how fast they were
 * answered (p50, p95, p99, max), how many answers were errors and how many
 * requests are still waiting. Fed frames in seq order (a live log as it grows,
 * or a transcript once); responses are paired by `requestSeq`, as everywhere
 * downstream of the sequencer (a recording made before it is paired on load).
 * The library's table is the same builder fed the index's timed calls
 * (`addCall`, lib/features/library/search.ts): one row type, one percentile.
 */
import type { Frame, FrameDirection } from "../protocol/frame";
import type { MethodLatency } from "../contracts/library-search";
import { isErrorResponse } from "./frame-filter";

interface Row {
  method: string;
  dir: FrameDirection;
  requests: number;
  errors: number;
  latencies: number[];
  slowest?: { ms: number; seq?: number };
}

/** Nearest-rank percentile of an ascending list (no interpolation: every figure is a real request's). */
export function percentile(sorted: ArrayLike<number>, p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

const rowKey = (dir: FrameDirection, method: string) => `${dir} ${method}`;

export class LatencyBuilder {
  readonly #rows = new Map<string, Row>();
  /** Requests waiting for their answer, by seq. */
  readonly #open = new Map<number, { row: Row; ts: number }>();
  lastSeq = 0;

  add(f: Frame): void {
    if (f.seq <= this.lastSeq) return;
    this.lastSeq = f.seq;
    if (f.kind === "request" && f.method !== undefined && f.id !== undefined) {
      const row = this.#row(f.dir, f.method);
      row.requests++;
      this.#open.set(f.seq, { row, ts: f.ts });
      return;
    }
    if (f.kind !== "response") return;
    const open = f.requestSeq !== undefined ? this.#open.get(f.requestSeq) : undefined;
    // A request older than the log (a capped live log dropped it): count the answer on its own.
    let row = open?.row;
    if (!row) {
      if (f.method === undefined || f.latencyMs === undefined) return;
      row = this.#row(f.dir === "to-agent" ? "from-agent" : "to-agent", f.method);
      row.requests++;
    } else this.#open.delete(f.requestSeq!);
    this.#answered(row, Math.max(0, f.latencyMs ?? f.ts - open!.ts), isErrorResponse(f), f.requestSeq ?? f.seq);
  }

  /** One call already timed, request and answer (the library's index keeps calls, not frames). */
  addCall(call: { method: string; dir: FrameDirection; ms: number; error: boolean }): void {
    const row = this.#row(call.dir, call.method);
    row.requests++;
    this.#answered(row, call.ms, call.error);
  }

  #answered(row: Row, ms: number, error: boolean, seq?: number): void {
    row.latencies.push(ms);
    if (!row.slowest || ms > row.slowest.ms) row.slowest = { ms, seq };
    if (error) row.errors++;
  }

  #row(dir: FrameDirection, method: string): Row {
    const key = rowKey(dir, method);
    let row = this.#rows.get(key);
    if (!row) this.#rows.set(key, (row = { method, dir, requests: 0, errors: 0, latencies: [] }));
    return row;
  }

  /** The table, slowest p95 first. Sorting is per call: call it when the view needs it. */
  table(): MethodLatency[] {
    const out: MethodLatency[] = [];
    for (const r of this.#rows.values()) {
      const sorted = Float64Array.from(r.latencies).sort();
      out.push({
        method: r.method,
        dir: r.dir,
        requests: r.requests,
        answered: r.latencies.length,
        errors: r.errors,
        pending: r.requests - r.latencies.length,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        max: sorted.length ? sorted[sorted.length - 1] : undefined,
        slowestSeq: r.slowest?.seq,
      });
    }
    return out.sort(
      (a, b) => (b.p95 ?? -1) - (a.p95 ?? -1) || a.method.localeCompare(b.method) || a.dir.localeCompare(b.dir),
    );
  }
}

export function methodLatency(frames: Iterable<Frame>): MethodLatency[] {
  const b = new LatencyBuilder();
  for (const f of frames) b.add(f);
  return b.table();
}
