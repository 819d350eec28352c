"use client";
/**
 * The decoded view of a Codex app-server conversation (lib/folds/codex-app-server/view.ts): the
 * thread's turns and their items, with approval cards where a turn waits for the user. Shown
 * in place of the ACP session view when the tab's agent (or recording) speaks the app-server
 * protocol. Clicking an item selects its frames, as in the session view.
 */
import { useItemSelection } from "../state/frame-selection";
import "../session-view/session-view.css";
import { useMemo, type ReactNode } from "react";
import type { AsItem } from "@/lib/folds/codex-app-server/view";
import type { Highlight } from "../session-view/highlight";
import { useSession, useSessionStore, useTabState } from "../state/use-session";
import { usePageShortcuts } from "../answer/shortcuts";
import { AsItemView } from "./ItemViews";
import { ThreadConversation } from "./ThreadConversation";
import { usageText } from "./TurnLine";
import { useAppServerView } from "./use-app-server-view";

interface Props {
  onHighlight: (highlight: Highlight) => void;
  onShowFrames: (seq: number) => void;
}

export function ThreadView({ onHighlight, onShowFrames }: Props) {
  const { state, epoch, lastSeq } = useAppServerView();
  const [picked, setPicked] = useTabState<string | undefined>("thread.picked", undefined);
  const { selectedSeq, select, showFrames } = useItemSelection(epoch, onHighlight, onShowFrames);
  const threadId = picked !== undefined && Object.hasOwn(state.threads, picked) ? picked : state.order.at(-1);
  const thread = threadId !== undefined ? state.threads[threadId] : undefined;
  const store = useSessionStore();
  const live = !store.isOffline;
  const pageListens = usePageShortcuts();
  const pendingFrames = useSession((s) => s.pending);
  // The store's pending list says what still waits for this page (the fold only knows what the frames say).
  const waitingSeqs = useMemo(() => new Set(live ? pendingFrames.map((f) => f.seq) : []), [live, pendingFrames]);

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
  const loose = useMemo(() => [...state.notices, ...(thread?.outside ?? [])], [state.notices, thread?.outside]);

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
          <ThreadConversation
            key={thread.id}
            thread={thread}
            loose={loose}
            waitingSeqs={waitingSeqs}
            version={lastSeq}
            renderItem={row}
          />
        </>
      ) : (
        <p data-testid="session-empty" className="px-3 py-6 text-center text-sm text-zinc-500">
          {/* Connect is the playground tab's (the page that listens for its keys): not a watcher's, nor a comparison side's. */}
          {live && pageListens && !store.watching
            ? "No thread yet. Press Connect above: it starts Codex's app-server, initializes it and starts a thread (initialize, initialized, thread/start). Its turns appear here: messages, reasoning, commands, file changes and the approvals they wait on."
            : live
              ? "No thread yet: it shows here once the agent has started one."
              : "No thread in this transcript up to here."}
        </p>
      )}
    </div>
  );
}
