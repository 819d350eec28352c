"use client";
/**
 * The decoded view of a Codex app-server conversation (lib/folds/app-server-view.ts): the
 * thread's turns and their items, with approval cards where a turn waits for the user. Shown
 * in place of the ACP session view when the tab's agent (or recording) speaks the app-server
 * protocol. Clicking an item selects its frames, as in the session view.
 */
import "../session-view/session-view.css";
import { useCallback, useMemo, useRef, type ReactNode } from "react";
import type { AsItem, TokenUsage, TurnView } from "@/lib/folds/app-server-view";
import { formatMs, formatUsage } from "@/lib/folds/session-view-format";
import { useRequestShortcuts } from "../answer/shortcuts";
import type { Highlight } from "../session-view/highlight";
import { useSession, useSessionStore, useTabState } from "../state/use-session";
import { CopyFrameLink } from "../transcripts/CopyFrameLink";
import { useStickToBottom } from "../use-stick-to-bottom";
import { AsItemView } from "./ItemViews";
import { useAppServerView } from "./use-app-server-view";

interface Selection {
  epoch: number;
  seq: number;
}

interface Props {
  onHighlight: (highlight: Highlight) => void;
  onShowFrames: (seq: number) => void;
}

/** "21 in · 9 out · 30 total" from the server's token counts. */
function usageText(u: TokenUsage["last"]): string {
  if (!u) return "";
  return formatUsage({
    source: "usage",
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    thoughtTokens: u.reasoningOutputTokens || undefined,
    cachedReadTokens: u.cachedInputTokens || undefined,
    totalTokens: u.totalTokens,
    raw: u,
  });
}

const STATUS_STYLE: Record<string, string> = {
  completed: "text-emerald-300 ring-emerald-500/30",
  interrupted: "text-amber-300 ring-amber-500/30",
  failed: "text-red-300 ring-red-500/30",
};

function TurnLine({ turn, index, waiting }: { turn: TurnView; index: number; waiting: boolean }) {
  const running = turn.status === "inProgress";
  const usage = usageText(turn.usage?.last);
  return (
    <div
      data-testid="turn-footer"
      data-status={turn.status}
      data-waiting={waiting}
      className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-zinc-800/80 pt-1.5 text-[11px] text-zinc-500"
    >
      <span className="text-zinc-600">turn {index + 1}</span>
      <CopyFrameLink seq={turn.seq} what="turn" className="text-zinc-500 hover:text-zinc-300 hover:underline" />
      {running && waiting ? (
        <span data-testid="turn-waiting" className="flex items-center gap-1.5 font-medium text-amber-300">
          <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-amber-400" /> waiting for you
        </span>
      ) : running ? (
        <span className="flex items-center gap-1.5 text-sky-300">
          <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-sky-400" /> running
        </span>
      ) : (
        <span
          data-testid="turn-status"
          className={`rounded px-1.5 py-px text-[10px] ring-1 ring-inset ${STATUS_STYLE[turn.status] ?? "text-zinc-300 ring-zinc-500/40"}`}
        >
          {turn.status}
        </span>
      )}
      {turn.error ? (
        <span data-testid="turn-error" className="text-red-300">
          error: {typeof turn.error.message === "string" ? turn.error.message : JSON.stringify(turn.error)}
        </span>
      ) : null}
      {turn.durationMs !== undefined ? <span>total {formatMs(turn.durationMs)}</span> : null}
      {usage ? (
        <span data-testid="turn-usage" title="thread/tokenUsage/updated: this turn's last model call">
          tokens {usage}
        </span>
      ) : null}
      {turn.interruptSeq !== undefined && running ? <span>interrupt requested</span> : null}
    </div>
  );
}

export function ThreadView({ onHighlight, onShowFrames }: Props) {
  const { state, epoch, lastSeq } = useAppServerView();
  const [picked, setPicked] = useTabState<string | undefined>("thread.picked", undefined);
  const [selection, setSelection] = useTabState<Selection | undefined>("inspector.selection", undefined);
  const selectedSeq = selection?.epoch === epoch ? selection.seq : undefined;
  const threadId = picked !== undefined && Object.hasOwn(state.threads, picked) ? picked : state.order.at(-1);
  const thread = threadId !== undefined ? state.threads[threadId] : undefined;
  const store = useSessionStore();
  const live = !store.isOffline;
  const pendingFrames = useSession((s) => s.pending);
  // The store's pending list says what still waits for this page (the fold only knows what the frames say).
  const waitingSeqs = useMemo(() => new Set(live ? pendingFrames.map((f) => f.seq) : []), [live, pendingFrames]);
  const ref = useRef<HTMLDivElement>(null);
  const { onScroll } = useStickToBottom<HTMLDivElement>([lastSeq, waitingSeqs.size], 32, ref);
  useRequestShortcuts(ref, waitingSeqs.size > 0);

  const select = useCallback(
    (item: AsItem) => {
      const seq = item.seqs.first;
      if (seq === undefined) return;
      setSelection({ epoch, seq });
      onHighlight({ epoch, seqs: item.seqs });
    },
    [epoch, setSelection, onHighlight],
  );
  const showFrames = useCallback(
    (item: AsItem) => {
      select(item);
      if (item.seqs.first !== undefined) onShowFrames(item.seqs.first);
    },
    [select, onShowFrames],
  );
  const row = (item: AsItem): ReactNode => (
    <AsItemView
      key={`${item.id}:${item.seqs.first}`}
      item={item}
      highlighted={selectedSeq !== undefined && item.seqs.includes(selectedSeq)}
      answerable={
        item.approval !== undefined && item.approval.result === undefined && waitingSeqs.has(item.approval.requestSeq)
      }
      onSelect={select}
      onShowFrames={showFrames}
    />
  );
  const usage = usageText(thread?.usage?.total);
  // Notices outside any turn, each before the turn that followed it.
  const loose = useMemo(
    () => [...state.notices, ...(thread?.outside ?? [])].sort((a, b) => a.seqs.first! - b.seqs.first!),
    [state.notices, thread?.outside],
  );

  return (
    <div
      data-testid="thread-view"
      data-last-seq={lastSeq}
      data-thread-id={thread?.id}
      className="flex min-h-0 flex-1 flex-col"
    >
      {thread ? (
        <>
          <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-zinc-800 px-3 py-1.5 text-[11px] text-zinc-400">
            {state.order.length > 1 ? (
              <select
                aria-label="Thread"
                value={thread.id}
                onChange={(e) => setPicked(e.target.value)}
                className="rounded border border-zinc-700 bg-zinc-900 px-1 py-0.5 font-mono text-[11px]"
              >
                {state.order.map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
              </select>
            ) : (
              <span className="font-mono text-zinc-300" title="thread id">
                thread {thread.id}
              </span>
            )}
            {thread.model ? <span>model {thread.model}</span> : null}
            {thread.cwd ? <span className="truncate font-mono text-zinc-500">{thread.cwd}</span> : null}
            {thread.status ? (
              <span data-testid="thread-status">
                {thread.status}
                {thread.activeFlags?.length ? ` (${thread.activeFlags.join(", ")})` : ""}
              </span>
            ) : null}
            {usage ? <span title="the thread's total token usage">tokens {usage}</span> : null}
          </header>
          <div
            ref={ref}
            onScroll={onScroll}
            data-testid="conversation"
            className="flex min-h-0 flex-1 flex-col gap-1.5 overflow-y-auto px-3 py-3"
          >
            {thread.turns.map((turn, i) => (
              <section key={turn.id} data-testid="as-turn" data-turn-id={turn.id} className="flex flex-col gap-1.5">
                {loose
                  .filter((it) => it.seqs.first! < turn.seq && it.seqs.first! > (thread.turns[i - 1]?.seq ?? 0))
                  .map(row)}
                {turn.items.map(row)}
                {turn.diff ? (
                  <details className="text-[11px]" data-testid="turn-diff">
                    <summary className="cursor-pointer select-none text-zinc-500 hover:text-zinc-300">
                      the turn&apos;s diff
                    </summary>
                    <pre className="mt-1 max-h-72 overflow-auto rounded border border-zinc-800 bg-zinc-950 p-1.5 font-mono text-zinc-300">
                      {turn.diff}
                    </pre>
                  </details>
                ) : null}
                <TurnLine
                  turn={turn}
                  index={i}
                  waiting={turn.items.some((it) => it.approval && waitingSeqs.has(it.approval.requestSeq))}
                />
              </section>
            ))}
            {loose.filter((it) => it.seqs.first! > (thread.turns.at(-1)?.seq ?? 0)).map(row)}
          </div>
        </>
      ) : (
        <p data-testid="session-empty" className="px-3 py-6 text-center text-sm text-zinc-500">
          {live
            ? "No thread yet. Press Connect on the left: it starts Codex's app-server, initializes it and starts a thread (initialize, initialized, thread/start); turns appear here."
            : "No thread in this transcript up to here."}
        </p>
      )}
    </div>
  );
}
