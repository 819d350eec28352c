/**
 * A waterfall turn's figures (where its time went) and its layout for a given width: items
 * narrower than a pixel merge, so a turn of 10,000 updates draws at most a few bars per pixel
 * column. Protocol-free: it reads the turns lib/folds/waterfall.ts folds.
 */
import { SeqList } from "./session-view/seq-list";
import type { TurnUsage } from "./turn-usage";
import type { ClientRequestItem, StreamKind, WaterfallTurn } from "./waterfall-turns";

export interface TurnSummary {
  /** Prompt to response (or to `now` while running). */
  totalMs: number;
  timeToFirstChunkMs?: number;
  /** Total less waiting for the user and less client requests. */
  agentMs: number;
  /** Permission requests, from the question to the answer (overlaps counted once). */
  userWaitMs: number;
  /** Other agent-to-client requests (fs, terminal...), overlaps and permission time counted once. */
  clientMs: number;
  requests: number;
  toolCalls: number;
  usage?: TurnUsage;
  running: boolean;
}

/** A request that waits for the user (a permission, an approval), not for the client's own work. */
export const waitsForUser = (r: ClientRequestItem) => r.waitsForUser === true;

/** Total length of the union of intervals. */
function unionMs(spans: Array<[number, number]>): number {
  spans.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let curStart = -Infinity;
  let curEnd = -Infinity;
  for (const [s, e] of spans) {
    if (s > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      curStart = s;
      curEnd = e;
    } else if (e > curEnd) curEnd = e;
  }
  if (curEnd > curStart) total += curEnd - curStart;
  return total;
}

export function turnEnd(t: WaterfallTurn, now: number): number {
  return t.end?.ts ?? Math.max(now, t.start);
}

export function summarizeTurn(t: WaterfallTurn, now: number): TurnSummary {
  const end = turnEnd(t, now);
  const span = (r: ClientRequestItem): [number, number] => [r.start, r.end ?? end];
  const userWaitMs = unionMs(t.requests.filter(waitsForUser).map(span));
  const waitingMs = unionMs(t.requests.map(span));
  const totalMs = end - t.start;
  return {
    totalMs,
    timeToFirstChunkMs: t.firstOutput ? t.firstOutput.ts - t.start : undefined,
    agentMs: Math.max(0, totalMs - waitingMs),
    userWaitMs,
    clientMs: waitingMs - userWaitMs,
    requests: t.requests.length,
    toolCalls: t.tools.length,
    usage: t.usage,
    running: !t.end,
  };
}

// ---------------------------------------------------------------------------
// Layout

export type BarKind = "ttfc" | StreamKind | "tool" | "permission" | "request" | "request-error";

export interface Lane {
  id: string;
  label: string;
}

export interface Bar {
  lane: number;
  kind: BarKind;
  /** Pixels from the left edge. */
  x: number;
  width: number;
  start: number;
  end: number;
  label: string;
  seqs: SeqList;
  /** Items merged into this bar (1 for a single item). */
  count: number;
}

export interface Marker {
  kind: "prompt" | "end";
  x: number;
  ts: number;
  seq: number;
  label: string;
}

export interface WaterfallLayout {
  lanes: Lane[];
  bars: Bar[];
  markers: Marker[];
  start: number;
  end: number;
  /** Pixels per millisecond. */
  scale: number;
}

/** A bar of merged items stops absorbing neighbours at this width. */
const MERGE_MAX_PX = 3;

/** Tool calls get a lane each up to this many; the rest share one. */
export const MAX_TOOL_LANES = 30;

interface Item {
  lane: number;
  kind: BarKind;
  start: number;
  end: number;
  label: string;
  seqs: SeqList;
}

function requestLabel(r: ClientRequestItem): string {
  const answer =
    r.end === undefined ? "unanswered" : r.error ? "error" : r.outcome ? `answer: ${r.outcome}` : "answered";
  return `${r.method} (${answer})`;
}

function concatSeqs(a: SeqList, b: SeqList): SeqList {
  let out = a;
  for (const s of b) out = out.append(s);
  return out;
}

/**
 * Lays turn `t` out over `width` pixels. Items of a lane that would be drawn
 * narrower than a pixel merge with their neighbours into one bar (their frames
 * and count kept), so the bar count stays near the width whatever the turn holds.
 */
export function layoutTurn(t: WaterfallTurn, width: number, now: number): WaterfallLayout {
  const start = t.start;
  const end = turnEnd(t, now);
  const scale = width / Math.max(1, end - start);
  const lanes: Lane[] = [{ id: "turn", label: "turn" }];
  const items: Item[] = [];
  const laneOf = new Map<string, number>();
  const lane = (id: string, label: string) => {
    let i = laneOf.get(id);
    if (i === undefined) {
      i = lanes.push({ id, label }) - 1;
      laneOf.set(id, i);
    }
    return i;
  };

  if (t.firstOutput) {
    items.push({
      lane: 0,
      kind: "ttfc",
      start,
      end: t.firstOutput.ts,
      label: "time to first chunk",
      seqs: SeqList.of(t.promptSeq, t.firstOutput.seq),
    });
  }
  for (const b of t.streams) {
    const l = b.kind === "thought" ? lane("thought", "thinking") : lane("message", "message");
    const label = `${b.kind === "thought" ? "thought" : "message"} stream, ${b.chunks} chunk${b.chunks === 1 ? "" : "s"}`;
    items.push({ lane: l, kind: b.kind, start: b.start, end: b.end ?? end, label, seqs: b.seqs });
  }
  t.tools.forEach((tool, i) => {
    const name = tool.title ?? tool.toolCallId;
    const l =
      i < MAX_TOOL_LANES
        ? lane(`tool:${i}`, name)
        : lane("tool:more", `${t.tools.length - MAX_TOOL_LANES} more tool calls`);
    const toolEnd = tool.end ?? end;
    const label = `tool ${name}${tool.status ? ` (${tool.status})` : ""}`;
    // The agent's own time: the call's span less its permission waits, drawn around them.
    let cursor = tool.start;
    const waits = tool.permissions.slice().sort((a, b) => a.start - b.start);
    for (const p of waits) {
      const pEnd = p.end ?? end;
      if (p.start > cursor) items.push({ lane: l, kind: "tool", start: cursor, end: p.start, label, seqs: tool.seqs });
      items.push({
        lane: l,
        kind: "permission",
        start: p.start,
        end: pEnd,
        label: `waiting for the user: ${requestLabel(p)}`,
        seqs: p.seqs,
      });
      cursor = Math.max(cursor, pEnd);
    }
    if (toolEnd > cursor || waits.length === 0) {
      items.push({ lane: l, kind: "tool", start: cursor, end: Math.max(cursor, toolEnd), label, seqs: tool.seqs });
    }
  });
  for (const r of t.requests) {
    if (waitsForUser(r)) continue; // drawn in its tool call's lane
    const group = r.method.split("/")[0] ?? r.method;
    items.push({
      lane: lane(`request:${group}`, `${group} requests`),
      kind: r.error ? "request-error" : "request",
      start: r.start,
      end: r.end ?? end,
      label: requestLabel(r),
      seqs: r.seqs,
    });
  }

  const x = (ts: number) => (ts - start) * scale;
  const bars: Bar[] = [];
  const lastInLane = new Map<number, Bar>();
  items.sort((a, b) => a.lane - b.lane || a.start - b.start);
  for (const it of items) {
    const bx = x(it.start);
    const bw = Math.max(0, (it.end - it.start) * scale);
    const prev = lastInLane.get(it.lane);
    // Merge a sub-pixel item into a narrow bar that reaches within a pixel of it.
    if (prev && bw < 1 && bx - (prev.x + prev.width) < 1 && prev.width < MERGE_MAX_PX) {
      const merged: Bar = {
        ...prev,
        width: Math.max(prev.width, bx + bw - prev.x),
        end: Math.max(prev.end, it.end),
        count: prev.count + 1,
        seqs: concatSeqs(prev.seqs, it.seqs),
      };
      merged.label = `${merged.count} items`;
      bars[bars.length - 1] = merged;
      lastInLane.set(it.lane, merged);
      continue;
    }
    const bar: Bar = { ...it, x: bx, width: bw, count: 1 };
    bars.push(bar);
    lastInLane.set(it.lane, bar);
  }

  const markers: Marker[] = [{ kind: "prompt", x: 0, ts: start, seq: t.promptSeq, label: "prompt" }];
  if (t.end) {
    const why = t.end.error !== undefined ? `error: ${t.end.error}` : `stop reason: ${t.end.stopReason ?? "none"}`;
    markers.push({ kind: "end", x: x(t.end.ts), ts: t.end.ts, seq: t.end.seq, label: why });
  }
  return { lanes, bars, markers, start, end, scale };
}

/** "1.234 s" / "56 ms": the exact figure, for hovers and the summary. */
export function formatMs(ms: number): string {
  return Math.abs(ms) >= 1000 ? `${(ms / 1000).toFixed(3)} s` : `${Math.round(ms)} ms`;
}
