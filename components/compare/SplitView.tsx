"use client";
/**
 * Two sessions side by side, each in the conversation view of its own store (a
 * TabContext per side, as the playground's tabs have): the Session view for
 * ACP, the thread view for Codex's app-server. Below them, the comparison of
 * the two, recomputed as frames arrive.
 */
import { useMemo } from "react";
import { compareRuns } from "@/lib/features/compare/compare";
import { useAgentProtocol } from "../app-server/use-protocol";
import { PROTOCOL_VIEWS } from "../protocol-views";
import { selectProtocol, type SessionStore } from "../state/session-store";
import type { Tab } from "../state/tabs-store";
import { TabContext, useSession } from "../state/use-session";
import { ComparisonReport } from "./ComparisonReport";

const noop = () => {};

export interface Side {
  tab: Tab;
  label: string;
}

/** The side's conversation as its protocol shows it (inside the side's TabContext). */
function Conversation() {
  const View = PROTOCOL_VIEWS[useAgentProtocol()].conversation;
  return <View onHighlight={noop} onShowFrames={noop} />;
}

function useFrames(store: SessionStore) {
  return useSession((s) => s.frames, store);
}

export function SplitView({ a, b, header }: { a: Side; b: Side; header?: (side: "a" | "b") => React.ReactNode }) {
  const framesA = useFrames(a.tab.store);
  const framesB = useFrames(b.tab.store);
  // Each side read by its own agent's protocol.
  const protocolA = useSession(selectProtocol, a.tab.store);
  const protocolB = useSession(selectProtocol, b.tab.store);
  const comparison = useMemo(
    () =>
      compareRuns(
        { label: a.label, frames: [...framesA], protocol: protocolA },
        { label: b.label, frames: [...framesB], protocol: protocolB },
      ),
    [a.label, b.label, framesA, framesB, protocolA, protocolB],
  );
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-auto">
      <div className="grid min-h-[24rem] grid-cols-2 divide-x divide-zinc-800 border-b border-zinc-800">
        {([a, b] as const).map((side, i) => (
          <div key={i} data-testid={`compare-side-${i ? "b" : "a"}`} className="flex min-h-0 min-w-0 flex-col">
            <div className="border-b border-zinc-800 px-3 py-1 text-xs text-zinc-300">
              <span data-testid="compare-side-label">{side.label}</span> {header?.(i ? "b" : "a")}
            </div>
            <TabContext.Provider value={side.tab}>
              <Conversation />
            </TabContext.Provider>
          </div>
        ))}
      </div>
      <ComparisonReport comparison={comparison} />
    </div>
  );
}
