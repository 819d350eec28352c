"use client";
/**
 * The Insights view of a tab (live or recorded): what to look at first
 * (lib/features/library/insights.ts) and the latency per method and direction
 * (lib/folds/method-latency.ts). Every item links to its frames: clicking
 * selects the first in the Frames view and scrolls to it.
 */
import { useMemo } from "react";
import { insightsOf } from "@/lib/features/library/insights";
import { methodLatency } from "@/lib/folds/method-latency";
import { useSession, useSessionPerFrame } from "../state/use-session";
import { selectProtocol } from "../state/session-store";
import type { SessionSnapshot } from "../state/snapshot";
import { InsightList } from "./InsightList";
import { LatencyTable } from "./LatencyTable";

const selectFrames = (s: SessionSnapshot) => s.frames;
/** A live session's insights are computed again at most this often. */
const REFRESH_MS = 1000;

export function InsightsView({ onShowFrame }: { onShowFrame: (seq: number) => void }) {
  const frames = useSessionPerFrame(selectFrames, REFRESH_MS);
  const protocol = useSession(selectProtocol);
  const { insights, latency } = useMemo(() => {
    const list = frames.toArray();
    return { insights: insightsOf(list, { now: Date.now(), protocol }), latency: methodLatency(list) };
  }, [frames, protocol]);
  return (
    <div data-testid="insights-view" className="min-h-0 flex-1 overflow-y-auto p-3 text-xs">
      <h2 className="mb-2 font-semibold uppercase tracking-wider text-zinc-400">Insights</h2>
      <InsightList insights={insights} onShowFrame={onShowFrame} />
      <h2 className="mb-2 mt-5 font-semibold uppercase tracking-wider text-zinc-400">Latency per method</h2>
      <LatencyTable rows={latency} onShowFrame={onShowFrame} />
    </div>
  );
}
