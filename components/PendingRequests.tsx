"use client";
/**
 * What waits for the user, above the prompt box (docs/design.md#one-thing-shown-once): a request the
 * conversation shows as a card gets a one-line pointer here (it scrolls to the card and focuses its
 * answer); one the current view cannot show (Frames, Waterfall, Insights, or a session not on screen)
 * gets its answer card here instead. Either way each question has one card. (The client's own requests
 * waiting for the agent are in the Raw panel.)
 */
import { useEffect, useState } from "react";
import { flushSync } from "react-dom";
import type { Frame } from "@/lib/protocol/frame";
import { PendingCard } from "./answer/PendingCard";
import { PolicyControls, usePersistedPolicies } from "./answer/PolicyControls";
import { AgentDismissals, EndedByExit } from "./answer/RequestNotices";
import { INLINE_REQUEST } from "./answer/shortcuts";
import { formatAge, useNow } from "./compose/use-now";
import { responseTemplate } from "./templates";
import { useSession } from "./state/use-session";

/** The request seqs whose card the conversation shows now, read from the page under `root`. */
export function useInlineSeqs(root: React.RefObject<HTMLElement | null>): ReadonlySet<number> {
  const [key, setKey] = useState("");
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const read = () => {
      const seqs = [...el.querySelectorAll(`[data-testid="${INLINE_REQUEST}"][id^="request-"]`)]
        .map((n) => n.id.slice("request-".length))
        .join(",");
      setKey(seqs);
    };
    read();
    // Rendered at once, in the task that added the conversation's card: scheduled, the dock's
    // second card stayed beside it for a task (a flicker, and two cards for one request).
    const observer = new MutationObserver(() => flushSync(read));
    observer.observe(el, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [root]);
  return new Set(key ? key.split(",").map(Number) : []);
}

/** Scrolls the conversation's card into view and puts the focus on its primary answer. */
export function focusInlineCard(seq: number): void {
  const card = document.getElementById(`request-${seq}`);
  if (!card) return;
  card.scrollIntoView({ block: "center" });
  card.querySelector<HTMLButtonElement>("button[data-primary='true']:not(:disabled), button:not(:disabled)")?.focus();
}

function Pointer({ frame, now, onDraft }: { frame: Frame; now: number; onDraft: (draft: string) => void }) {
  return (
    <li
      data-testid="waiting-pointer"
      data-seq={frame.seq}
      data-method={frame.method}
      className="flex items-center gap-2 rounded border border-amber-500/40 bg-amber-500/5 px-2 py-1 text-xs"
    >
      <span aria-hidden="true" className="h-2 w-2 shrink-0 rounded-full bg-amber-400" />
      <button
        type="button"
        data-testid="waiting-goto"
        onClick={() => focusInlineCard(frame.seq)}
        className="min-w-0 truncate text-left text-amber-100 hover:underline"
        title="Scroll to the card in the conversation and focus its answer"
      >
        The agent asks <span className="font-mono text-amber-300">{frame.method}</span> · answer on its card ↑
      </button>
      <span data-testid="pending-age" className="shrink-0 text-[11px] text-zinc-400">
        waiting {formatAge(Math.max(0, now - frame.ts))}
      </span>
      <button
        type="button"
        data-testid="pending-request"
        data-seq={frame.seq}
        onClick={() => onDraft(responseTemplate(frame))}
        className="ml-auto shrink-0 text-[11px] text-zinc-400 hover:text-sky-200 hover:underline"
        title="Draft a result for this request in the Raw panel"
      >
        answer by hand…
      </button>
    </li>
  );
}

export function PendingRequests({
  onPick,
  shownInline,
}: {
  onPick: (draft: string) => void;
  /** The requests the conversation shows as cards now: they get a pointer here, not a second card. */
  shownInline: ReadonlySet<number>;
}) {
  const pending = useSession((s) => s.pending);
  const now = useNow(1000);
  usePersistedPolicies();
  const inline = pending.filter((f) => shownInline.has(f.seq));
  const here = pending.filter((f) => !shownInline.has(f.seq));
  return (
    <section
      className="flex flex-col gap-1.5 px-3 pt-2 empty:hidden"
      aria-label="Pending agent requests"
      data-testid="waiting-dock"
      data-waiting={pending.length}
    >
      <AgentDismissals />
      <EndedByExit />
      {inline.length ? (
        <ul className="flex flex-col gap-1" aria-label="Waiting for you">
          {inline.map((frame) => (
            <Pointer key={frame.seq} frame={frame} now={now} onDraft={onPick} />
          ))}
        </ul>
      ) : null}
      {here.length ? (
        <ul className="flex max-h-[40vh] flex-col gap-1.5 overflow-y-auto" aria-label="Waiting for you">
          {here.map((frame, i) => (
            <PendingCard
              key={frame.seq}
              frame={frame}
              now={now}
              onDraft={onPick}
              shortcuts={i === 0 && inline.length === 0}
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * The per-method answer policies, a setting rather than a state: folded to one line at the bottom of
 * the prompt dock, and opened there in the page's flow (over nothing).
 */
export function PolicyDisclosure() {
  return (
    <details className="px-3 pb-1.5 text-[11px]" data-testid="policies">
      <summary className="cursor-pointer text-zinc-400 hover:text-zinc-200">
        Answer policies <span className="text-zinc-500">(ask · auto · deny per method, kept in this browser)</span>
      </summary>
      <div className="pt-1.5">
        <PolicyControls />
      </div>
    </details>
  );
}
