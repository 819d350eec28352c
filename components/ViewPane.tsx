"use client";
/**
 * The right-hand side of a tab: the decoded Session view (the Thread view for Codex's app-server, also
 * before its agent runs when the chosen profile speaks it), the raw Frames
 * inspector or the turn Waterfall, one at a time (the hidden one is unmounted, so it costs nothing
 * while frames stream). Both share the tab's selection: items clicked in the
 * session view highlight their frames, a frame selected in the inspector
 * highlights its item.
 */
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useViewProtocol } from "./app-server/use-protocol";
import { FrameInspector, type FrameGoto } from "./inspector/FrameInspector";
import { InsightsView } from "./insights/InsightsView";
import type { Highlight } from "./session-view/highlight";
import { PROTOCOL_VIEWS } from "./protocol-views";
import { descriptorOf } from "@/lib/protocol/protocols";
import { useTabState } from "./state/use-session";
import { SHOWN_VIEW, usePublishTabSignal } from "./state/tab-signal";
import { WaterfallView } from "./waterfall/WaterfallView";

type View = "session" | "frames" | "waterfall" | "insights";

/** The view last chosen (any tab): where new tabs and reloaded pages open. */
const VIEW_KEY = "acp-playground.view";

function preferredView(): View {
  try {
    const v = localStorage.getItem(VIEW_KEY);
    return v === "frames" || v === "waterfall" || v === "insights" ? v : "session";
  } catch {
    return "session";
  }
}

const VIEWS: Array<{ id: View; label: string }> = [
  { id: "session", label: "Session" }, // "Thread" for Codex's app-server
  { id: "frames", label: "Frames" },
  { id: "waterfall", label: "Waterfall" },
  { id: "insights", label: "Insights" },
];

interface SwitchProps {
  view: View;
  onChange: (v: View) => void;
  /** The conversation view's name in the agent's protocol: ACP's session or the app-server's thread. */
  conversation: string;
  leading?: ReactNode;
  trailing?: ReactNode;
}

function ViewSwitch({ view, onChange, conversation, leading, trailing }: SwitchProps) {
  return (
    <div className="flex h-8 shrink-0 items-end gap-1 border-b border-zinc-800 bg-zinc-900/70 px-3">
      {/* Outside the tablist: a tablist may hold only tabs. */}
      {leading}
      <div role="tablist" aria-label="View" className="flex items-end gap-1 self-stretch">
        {VIEWS.map((v) => (
          <button
            key={v.id}
            type="button"
            role="tab"
            data-testid={`view-${v.id}`}
            aria-selected={view === v.id}
            onClick={() => onChange(v.id)}
            className={`-mb-px rounded-t border px-3 py-1 text-xs ${
              view === v.id
                ? "border-zinc-700 border-b-zinc-950 bg-zinc-950 font-medium text-zinc-100"
                : "border-transparent text-zinc-500 hover:text-zinc-300"
            }`}
          >
            {v.id === "session" ? conversation : v.label}
          </button>
        ))}
      </div>
      {trailing}
    </div>
  );
}

/**
 * `leading`, `trailing`: controls before and after the view tabs (the playground's panel toggles).
 * `goto`: select a frame and scroll to it in the Frames view (a link to a frame); a new object per request.
 */
export function ViewPane({ leading, trailing, goto }: { leading?: ReactNode; trailing?: ReactNode; goto?: FrameGoto }) {
  const [view, setView] = useTabState<View>("view", preferredView);
  // The prompt box's turn status leaves out what the Session view's turn footer already shows.
  usePublishTabSignal(SHOWN_VIEW, view);
  const [highlight, setHighlight] = useTabState<Highlight | undefined>("highlightSeqs", undefined);
  // A frame to scroll to when the Frames view opens ("#seq" on a session item).
  const [reveal, setReveal] = useState<number>();
  const protocol = useViewProtocol();
  const Conversation = PROTOCOL_VIEWS[protocol].conversation;
  // Select and show one frame (insights, latency, links): the Frames view opens on it.
  const [frameGoto, setFrameGoto] = useState<FrameGoto>();

  const switchTo = useCallback(
    (v: View) => {
      setReveal(undefined);
      setFrameGoto(undefined);
      setView(v);
      try {
        localStorage.setItem(VIEW_KEY, v);
      } catch {
        // Storage may be off: the choice then lasts for this tab only.
      }
    },
    [setView],
  );
  const showFrames = useCallback(
    (seq: number) => {
      setReveal(seq);
      setView("frames");
    },
    [setView],
  );
  const onHighlight = useCallback((h: Highlight) => setHighlight(h), [setHighlight]);
  const showFrame = useCallback(
    (seq: number) => {
      setFrameGoto({ seq });
      setView("frames");
    },
    [setView],
  );
  useEffect(() => {
    if (goto) showFrame(goto.seq);
  }, [goto, showFrame]);

  return (
    <section className="flex min-h-0 flex-1 flex-col" data-testid="view-pane" data-view={view} aria-label="Views">
      <ViewSwitch
        view={view}
        onChange={switchTo}
        conversation={descriptorOf(protocol).conversation}
        leading={leading}
        trailing={trailing}
      />
      {view === "session" ? (
        <Conversation onHighlight={onHighlight} onShowFrames={showFrames} />
      ) : view === "waterfall" ? (
        <WaterfallView onHighlight={onHighlight} />
      ) : view === "insights" ? (
        <InsightsView onShowFrame={showFrame} />
      ) : (
        <FrameInspector highlight={highlight} revealSeq={reveal} goto={frameGoto} />
      )}
    </section>
  );
}
