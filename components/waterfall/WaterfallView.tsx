"use client";
/**
 * The turn waterfall of one tab (lib/folds/waterfall.ts) as plain SVG: one lane per
 * stream, tool call and kind of client request on the turn's time axis.
 * Hovering a bar shows its exact times; clicking selects its frames, as the
 * Session view does (the Frames view highlights them).
 */
import { useItemSelection } from "../state/frame-selection";
import { useEffect, useMemo, useState } from "react";
import { SeqList } from "@/lib/folds/session-view";
import {
  formatMs,
  layoutTurn,
  summarizeTurn,
  turnEnd,
  type Bar,
  type BarKind,
  type Marker,
  type WaterfallTurn,
} from "@/lib/folds/waterfall";
import type { Highlight } from "../session-view/highlight";
import { useTabState } from "../state/use-session";
import { useWaterfall } from "./use-waterfall";

interface Props {
  onHighlight: (highlight: Highlight) => void;
}

const LABEL_W = 168;
const LANE_H = 22;
const AXIS_H = 22;
const PAD_R = 12;

const FILL: Record<BarKind, string> = {
  ttfc: "fill-zinc-600",
  thought: "fill-violet-500",
  message: "fill-sky-500",
  tool: "fill-emerald-500",
  permission: "fill-amber-400",
  request: "fill-teal-400",
  "request-error": "fill-red-500",
};

const LEGEND: Array<[BarKind, string]> = [
  ["ttfc", "to first chunk"],
  ["thought", "thinking"],
  ["message", "message"],
  ["tool", "tool (agent)"],
  ["permission", "waiting for the user"],
  ["request", "client request"],
  ["request-error", "failed request"],
];

/** Ticks at 1, 2 or 5 × 10^n ms, about every 90 px. */
function ticks(totalMs: number, width: number): number[] {
  const raw = (totalMs / Math.max(1, width)) * 90;
  const pow = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  const step = [1, 2, 5, 10].map((k) => k * pow).find((s) => s >= raw) ?? 10 * pow;
  const out: number[] = [];
  for (let t = 0; t <= totalMs && out.length < 200; t += step) out.push(t);
  return out;
}

const tickLabel = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)}s` : `${ms}ms`);

/** A callback ref and the width of the element it is on. */
function useWidth(): [(el: HTMLDivElement | null) => void, number] {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(800);
  useEffect(() => {
    if (!el) return;
    const ro = new ResizeObserver(([entry]) => setWidth(Math.max(200, Math.floor(entry!.contentRect.width))));
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);
  return [setEl, width];
}

/** Wall-clock now while a live turn runs, re-rendering a few times a second; else the newest frame's ts. */
function useTurnNow(running: boolean, live: boolean, lastTs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running || !live) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [running, live]);
  return running && live ? Math.max(now, lastTs) : lastTs;
}

type Hover = { label: string; start: number; end: number; count: number; frames: number } | undefined;

function Summary({ turn, now }: { turn: WaterfallTurn; now: number }) {
  const s = summarizeTurn(turn, now);
  const u = s.usage;
  const fig = (label: string, value: string, testId: string) => (
    <div className="flex items-baseline gap-1.5">
      <dt className="text-[10px] uppercase tracking-wider text-zinc-500">{label}</dt>
      <dd data-testid={testId} className="font-mono text-zinc-200">
        {value}
      </dd>
    </div>
  );
  return (
    <dl data-testid="waterfall-summary" className="flex flex-wrap gap-x-5 gap-y-1 px-3 py-2 text-xs">
      {fig("total", `${formatMs(s.totalMs)}${s.running ? " (running)" : ""}`, "wf-total")}
      {fig("first chunk", s.timeToFirstChunkMs === undefined ? "—" : formatMs(s.timeToFirstChunkMs), "wf-ttfc")}
      {fig("agent", formatMs(s.agentMs), "wf-agent")}
      {fig("waiting for user", formatMs(s.userWaitMs), "wf-user")}
      {fig(
        "client requests",
        `${formatMs(s.clientMs)} (${s.requests - turn.tools.reduce((n, t) => n + t.permissions.length, 0)})`,
        "wf-client",
      )}
      {fig("tool calls", String(s.toolCalls), "wf-tools")}
      {fig(
        "tokens",
        u
          ? `${u.inputTokens ?? "?"} in · ${u.outputTokens ?? "?"} out${u.totalTokens !== undefined ? ` · ${u.totalTokens} total` : ""}`
          : "—",
        "wf-tokens",
      )}
    </dl>
  );
}

export function WaterfallView({ onHighlight }: Props) {
  const { builder, epoch, lastSeq, lastTs, live, ended } = useWaterfall();
  // The turns as of this state (ended.length): the builder may already hold frames it has not rendered.
  const turns = builder.turns.slice(0, ended.length);
  const [picked, setPicked] = useTabState<number | undefined>("waterfall.turn", undefined);
  const { selectedSeq, select } = useItemSelection(epoch, onHighlight);
  const [hover, setHover] = useState<Hover>();
  const [ref, measured] = useWidth();

  // Follow the newest turn unless the user picked one.
  const index = picked !== undefined && picked < turns.length ? picked : turns.length - 1;
  const turn = turns[index];
  const now = useTurnNow(index >= 0 && !ended[index], live, lastTs);
  const width = Math.max(100, measured - LABEL_W - PAD_R);
  const layout = useMemo(
    () => (turn ? layoutTurn(turn, width, now) : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- lastSeq: the builder grew the turn in place.
    [turn, width, now, lastSeq],
  );

  if (!turn || !layout) {
    return (
      <div ref={ref} data-testid="waterfall-view" data-last-seq={lastSeq} className="flex min-h-0 flex-1 flex-col">
        <p data-testid="waterfall-empty" className="px-3 py-6 text-center text-sm text-zinc-600">
          No prompt turn yet. Send a <code className="text-zinc-400">session/prompt</code>: where its time goes appears
          here.
        </p>
      </div>
    );
  }

  const height = AXIS_H + layout.lanes.length * LANE_H + 4;
  const x0 = LABEL_W;
  const total = turnEnd(turn, now) - turn.start;
  const rel = (ts: number) => formatMs(ts - turn.start);
  const hoverBar = (b: Pick<Bar, "label" | "start" | "end" | "count" | "seqs">) =>
    setHover({ label: b.label, start: b.start, end: b.end, count: b.count, frames: b.seqs.length });
  const hoverMarker = (m: Marker) => setHover({ label: m.label, start: m.ts, end: m.ts, count: 1, frames: 1 });

  return (
    <div
      data-testid="waterfall-view"
      data-last-seq={lastSeq}
      data-turn={turn.index}
      className="flex min-h-0 flex-1 flex-col overflow-auto"
    >
      <div className="flex items-center gap-3 border-b border-zinc-800 px-3 py-1.5 text-xs">
        <label className="flex items-center gap-1.5 text-zinc-400">
          Turn
          <select
            data-testid="waterfall-turn"
            className="rounded border border-zinc-700 bg-zinc-900 px-1 py-0.5 text-zinc-200"
            value={turn.index}
            onChange={(e) => {
              const i = Number(e.target.value);
              setPicked(i === turns.length - 1 ? undefined : i);
            }}
          >
            {turns.map((t) => (
              <option key={t.index} value={t.index}>
                {t.index + 1} · {t.sessionId.slice(0, 12) || "(no session)"}
                {t.end ? "" : " · running"}
              </option>
            ))}
          </select>
        </label>
        <ul className="flex flex-wrap gap-x-3 gap-y-0.5 text-[10px] text-zinc-500" aria-label="Legend">
          {LEGEND.map(([kind, label]) => (
            <li key={kind} className="flex items-center gap-1">
              <svg width="10" height="8" aria-hidden="true">
                <rect width="10" height="8" rx="1" className={FILL[kind]} />
              </svg>
              {label}
            </li>
          ))}
        </ul>
      </div>
      <Summary turn={turn} now={now} />
      <div ref={ref}>
        <svg
          data-testid="waterfall-chart"
          width={x0 + width + PAD_R}
          height={height}
          // A group, not an img: an img's children are presentational, and its bars are buttons.
          role="group"
          aria-label={`Waterfall of turn ${turn.index + 1}: ${formatMs(total)}`}
          className="block select-none"
          onMouseLeave={() => setHover(undefined)}
        >
          {ticks(total, width).map((t) => {
            const x = x0 + t * layout.scale;
            return (
              <g key={t}>
                <line x1={x} x2={x} y1={AXIS_H - 4} y2={height} className="stroke-zinc-800" />
                <text x={x + 2} y={AXIS_H - 8} className="fill-zinc-500 text-[10px]">
                  {tickLabel(t)}
                </text>
              </g>
            );
          })}
          {layout.lanes.map((lane, i) => (
            <text
              key={lane.id}
              x={8}
              y={AXIS_H + i * LANE_H + LANE_H / 2 + 4}
              className="fill-zinc-400 text-[11px]"
              data-testid="waterfall-lane"
            >
              {lane.label.length > 24 ? `${lane.label.slice(0, 23)}…` : lane.label}
              <title>{lane.label}</title>
            </text>
          ))}
          {layout.bars.map((b, i) => {
            const selected = selectedSeq !== undefined && b.seqs.includes(selectedSeq);
            const detail = `${b.label}: +${rel(b.start)} → +${rel(b.end)} (${formatMs(b.end - b.start)})`;
            return (
              <rect
                key={i}
                data-testid="waterfall-bar"
                data-kind={b.kind}
                data-count={b.count}
                data-selected={selected || undefined}
                role="button"
                tabIndex={0}
                aria-label={detail}
                x={x0 + b.x}
                y={AXIS_H + b.lane * LANE_H + 4}
                width={Math.max(1, b.width)}
                height={LANE_H - 8}
                rx={2}
                className={`${FILL[b.kind]} cursor-pointer ${selected ? "stroke-zinc-100" : "hover:opacity-80"}`}
                strokeWidth={selected ? 1.5 : 0}
                onMouseEnter={() => hoverBar(b)}
                onFocus={() => hoverBar(b)}
                onClick={() => select(b)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" || e.key === " ") {
                    e.preventDefault();
                    select(b);
                  }
                }}
              >
                <title>{detail}</title>
              </rect>
            );
          })}
          {layout.markers.map((m) => (
            <g
              key={m.kind}
              data-testid={`waterfall-${m.kind}`}
              className="cursor-pointer"
              onMouseEnter={() => hoverMarker(m)}
              onClick={() => select({ seqs: SeqList.of(m.seq) })}
            >
              <line
                x1={x0 + m.x}
                x2={x0 + m.x}
                y1={AXIS_H - 2}
                y2={AXIS_H + LANE_H - 2}
                strokeWidth={2}
                className={m.kind === "end" ? "stroke-rose-400" : "stroke-zinc-200"}
              />
              <title>{`${m.label} at +${rel(m.ts)}`}</title>
            </g>
          ))}
        </svg>
      </div>
      <p data-testid="waterfall-hover" className="min-h-6 px-3 py-1 font-mono text-[11px] text-zinc-400">
        {hover
          ? `${hover.label} · +${rel(hover.start)} → +${rel(hover.end)} · ${formatMs(hover.end - hover.start)} · ${
              hover.frames
            } frame${hover.frames === 1 ? "" : "s"}${hover.count > 1 ? ` · ${hover.count} items merged` : ""}`
          : turn.end
            ? `ended at +${rel(turn.end.ts)}: ${
                turn.end.error !== undefined
                  ? `error: ${turn.end.error}`
                  : `stop reason ${turn.end.stopReason ?? "none"}`
              }`
            : "running…"}
      </p>
    </div>
  );
}
