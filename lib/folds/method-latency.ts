/**
 * Latency per method and direction: how many requests, how fast they were
 * answered (p50, p95, p99, max), how many answers were errors and how many
 * requests are still waiting. Fed frames in seq order (a live log as it grows,
 * or a transcript once); responses are paired by `requestSeq`, as everywhere
 * downstream of the sequencer (a recording made before it is paired on load).
 */
import type { Frame, FrameDirection } from "../protocol/frame";
import { isErrorResponse } from "./frame-filter";

/** One row of the table. `dir` is the way the request travelled. */
export interface MethodLatency {
  method: string;
  dir: FrameDirection;
  /** Requests sent. */
  requests: number;
  /** Requests answered (the latency figures are over these). */
  answered: number;
  /** Answers that were JSON-RPC errors. */
  errors: number;
  /** Requests with no answer (yet). */
  pending: number;
  p50?: number;
  p95?: number;
  p99?: number;
  max?: number;
  /** The request answered slowest, to link to. */
  slowestSeq?: number;
}

interface Row {
  method: string;
  dir: FrameDirection;
  requests: number;
  errors: number;
  latencies: number[];
  slowest?: { ms: number; seq: number };
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
    const ms = Math.max(0, f.latencyMs ?? f.ts - open!.ts);
    row.latencies.push(ms);
    if (!row.slowest || ms > row.slowest.ms) row.slowest = { ms, seq: f.requestSeq ?? f.seq };
    if (isErrorResponse(f)) row.errors++;
  }

  #row(dir: FrameDirection, method: string): Row {
    const key = rowKey(dir, method);
    let row = this.#rows.get(key);
    if (!row) this.#rows.set(key, (row = { method, dir, requests: 0, errors: 0, latencies: [] }));
    return row;
  }

  /** Adds another builder's figures (a library-wide table over many transcripts). */
  merge(other: LatencyBuilder): void {
    for (const r of other.#rows.values()) {
      const row = this.#row(r.dir, r.method);
      row.requests += r.requests;
      row.errors += r.errors;
      for (const ms of r.latencies) row.latencies.push(ms);
      if (r.slowest && (!row.slowest || r.slowest.ms > row.slowest.ms)) row.slowest = { ...r.slowest };
    }
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
