"use client";
/**
 * One thread's turns as rows: notices where they came (in a turn, or between turns), each turn's items, its
 * diff and its footer. Short threads are plain DOM; long ones are virtualised with measured row
 * heights, as the ACP conversation is (components/session-view/Conversation.tsx). Sticks to the
 * bottom while the user is there.
 */
import { useMemo, useRef, type ReactNode } from "react";
import type { AsItem, ThreadView, TurnView } from "@/lib/folds/codex-app-server/view";
import { useRequestShortcuts } from "../answer/shortcuts";
import { ConversationRows, useConversationRows } from "../session-view/Conversation";
import { useStickToBottom } from "../use-stick-to-bottom";
import { TurnLine } from "./TurnLine";

type Row =
  | { key: string; item: AsItem }
  | { key: string; diff: string }
  | { key: string; turn: TurnView; index: number; waiting: boolean };

function buildRows(thread: ThreadView, loose: readonly AsItem[], waitingSeqs: ReadonlySet<number>): Row[] {
  const rows: Row[] = [];
  const byFirst = [...loose].sort((a, b) => a.seqs.first! - b.seqs.first!);
  let next = 0;
  const looseUpTo = (seq: number) => {
    while (next < byFirst.length && byFirst[next]!.seqs.first! < seq) {
      const item = byFirst[next++]!;
      rows.push({ key: `n${item.id}:${item.seqs.first}`, item });
    }
  };
  thread.turns.forEach((turn, index) => {
    looseUpTo(turn.seq);
    // A notice sent while the turn ran (before the server named the turn) shows in it, in frame order.
    const end = turn.endSeq ?? thread.turns[index + 1]?.seq ?? Infinity;
    for (const item of turn.items) {
      looseUpTo(Math.min(item.seqs.first!, end));
      rows.push({ key: `i${turn.id}:${item.id}`, item });
    }
    looseUpTo(end);
    if (turn.diff) rows.push({ key: `d${turn.id}`, diff: turn.diff });
    const waiting = turn.items.some((it) => it.approval && waitingSeqs.has(it.approval.requestSeq));
    rows.push({ key: `f${turn.id}`, turn, index, waiting });
  });
  looseUpTo(Infinity);
  return rows;
}

interface Props {
  thread: ThreadView;
  /** Items of no turn (notices, legacy requests), shown in frame order among the turns. */
  loose: readonly AsItem[];
  /** Seqs of the server requests this page can still answer. */
  waitingSeqs: ReadonlySet<number>;
  /** Changes with every folded frame: the stick-to-bottom trigger. */
  version: number;
  renderItem: (item: AsItem) => ReactNode;
}

export function ThreadConversation({ thread, loose, waitingSeqs, version, renderItem }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => buildRows(thread, loose, waitingSeqs), [thread, loose, waitingSeqs]);
  const list = useConversationRows(rows, ref);
  const { virtual, totalSize } = list;
  const { onScroll } = useStickToBottom<HTMLDivElement>([version, totalSize, waitingSeqs.size], 32, ref);
  useRequestShortcuts(ref, waitingSeqs.size > 0);

  const render = (row: Row): ReactNode =>
    "item" in row ? (
      renderItem(row.item)
    ) : "diff" in row ? (
      <details className="text-[11px]" data-testid="turn-diff">
        <summary className="cursor-pointer select-none text-zinc-500 hover:text-zinc-300">the turn&apos;s diff</summary>
        <pre className="mt-1 max-h-72 overflow-auto rounded border border-zinc-800 bg-zinc-950 p-1.5 font-mono text-zinc-300">
          {row.diff}
        </pre>
      </details>
    ) : (
      <TurnLine turn={row.turn} index={row.index} waiting={row.waiting} />
    );

  return (
    <div
      ref={ref}
      onScroll={onScroll}
      data-testid="conversation"
      data-virtual={virtual}
      className="min-h-0 flex-1 overflow-y-auto px-3 py-3"
    >
      <ConversationRows {...list} rows={rows} render={render} />
    </div>
  );
}
