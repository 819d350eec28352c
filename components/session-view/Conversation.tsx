"use client";
/**
 * One session's conversation: preamble items, then each turn's items and its
 * footer. Short conversations are plain DOM; long ones are virtualised with
 * measured row heights. Sticks to the bottom while the user is there, and on
 * mount brings the highlighted item into view.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, type ReactNode, type RefObject } from "react";
import { useStickToBottom } from "../use-stick-to-bottom";
import type { Frame } from "@/lib/protocol/frame";
import type { SessionState, Turn, ViewItem } from "@/lib/folds/session-view";
import { InlineRequests } from "../answer/InlineRequests";
import { ItemView } from "./ItemView";
import { TurnFooter } from "./TurnFooter";

/** Above this many rows only the rows in view (plus overscan) are in the DOM. */
const VIRTUALIZE_AT = 80;

/** A conversation's rows and, when there are more than VIRTUALIZE_AT, the virtualizer that measures them. */
export function useConversationRows(rows: ReadonlyArray<{ key: string }>, ref: RefObject<HTMLDivElement | null>) {
  const virtual = rows.length > VIRTUALIZE_AT;
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => ref.current,
    estimateSize: () => 72,
    overscan: 6,
    getItemKey: (i) => rows[i]?.key ?? i,
    useFlushSync: false,
  });
  return { virtual, virtualizer, totalSize: virtual ? virtualizer.getTotalSize() : 0 };
}

/** The rows: each in the DOM, or only those in view, placed where the virtualizer measured them. */
export function ConversationRows<R extends { key: string }>({
  rows,
  virtual,
  virtualizer,
  totalSize,
  render,
}: ReturnType<typeof useConversationRows> & { rows: readonly R[]; render: (row: R) => ReactNode }) {
  return virtual ? (
    <div style={{ height: totalSize, position: "relative", width: "100%" }}>
      {virtualizer.getVirtualItems().map((v) => {
        const row = rows[v.index]!;
        return (
          <div
            key={v.key}
            data-index={v.index}
            data-row={row.key}
            ref={virtualizer.measureElement}
            className="pb-1.5"
            style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${v.start}px)` }}
          >
            {render(row)}
          </div>
        );
      })}
    </div>
  ) : (
    rows.map((row) => (
      <div key={row.key} data-row={row.key} className="pb-1.5">
        {render(row)}
      </div>
    ))
  );
}
const SLACK_PX = 32;

type Row =
  | { key: string; item: ViewItem }
  | { key: string; history: readonly ViewItem[]; method?: string }
  | { key: string; turn: Turn; index: number; waiting: boolean }
  | { key: string; requests: readonly Frame[] };

/** Requests waiting for the user go where the turn waits: above the running turn's footer. */
function buildRows(session: SessionState, requests: readonly Frame[]): Row[] {
  const rows: Row[] = [];
  // What session/load (or a replaying resume) sent back: the session's past, one section before the rest.
  if (session.history.length) rows.push({ key: "history", history: session.history, method: session.origin?.method });
  for (const item of session.preamble) rows.push({ key: `p${item.seqs.first}`, item });
  const waitingRow: Row = { key: "requests", requests };
  const last = session.turns.length - 1;
  const waitingTurn = requests.length && last >= 0 && !session.turns[last]!.ended ? last : -1;
  session.turns.forEach((turn, index) => {
    for (const item of turn.items) rows.push({ key: `i${item.seqs.first}`, item });
    if (index === waitingTurn) rows.push(waitingRow);
    rows.push({ key: `f${turn.seq}`, turn, index, waiting: index === waitingTurn });
  });
  if (requests.length && waitingTurn < 0) rows.push(waitingRow);
  return rows;
}

interface Props {
  session: SessionState;
  /** Changes with every folded frame: the stick-to-bottom trigger. */
  version: number;
  selectedSeq: number | undefined;
  onSelect: (item: ViewItem) => void;
  onShowFrames: (item: ViewItem) => void;
  /** This session's requests waiting for the user (none in a read-only view). */
  requests: readonly Frame[];
}

export function Conversation({ session, version, selectedSeq, onSelect, onShowFrames, requests }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => buildRows(session, requests), [session, requests]);
  const list = useConversationRows(rows, ref);
  const { virtual, virtualizer, totalSize } = list;

  const { onScroll, atBottom } = useStickToBottom<HTMLDivElement>([version, totalSize, requests.length], SLACK_PX, ref);

  // Coming from the Frames view with a frame selected: show its item instead of the bottom.
  useEffect(() => {
    if (selectedSeq === undefined) return;
    const i = rows.findIndex(
      (r) =>
        ("item" in r && r.item.seqs.includes(selectedSeq)) ||
        ("history" in r && r.history.some((it) => it.seqs.includes(selectedSeq))),
    );
    if (i < 0) return;
    atBottom.current = false;
    if (virtual) virtualizer.scrollToIndex(i, { align: "center" });
    else ref.current?.querySelector(`[data-row="${rows[i]!.key}"]`)?.scrollIntoView({ block: "center" });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- Only on mount: later selections come from clicks on items already in view.
  }, []);

  const render = (row: Row): ReactNode =>
    "item" in row ? (
      <ItemView
        item={row.item}
        highlighted={selectedSeq !== undefined && row.item.seqs.includes(selectedSeq)}
        onSelect={onSelect}
        onShowFrames={onShowFrames}
      />
    ) : "history" in row ? (
      <details
        data-testid="sv-history"
        open
        className="rounded-md border border-zinc-800/80 bg-zinc-950/40 px-1.5 py-1"
      >
        <summary
          className="cursor-pointer select-none px-1 text-[10px] font-semibold uppercase tracking-wider text-zinc-500"
          onClick={(e) => e.stopPropagation()}
        >
          History{" "}
          <span className="font-normal normal-case tracking-normal text-zinc-600">
            · {row.history.length} items replayed by {row.method ?? "session/load"}
          </span>
        </summary>
        <div className="mt-1 flex flex-col gap-1.5">
          {row.history.map((item) => (
            <ItemView
              key={item.seqs.first}
              item={item}
              highlighted={selectedSeq !== undefined && item.seqs.includes(selectedSeq)}
              onSelect={onSelect}
              onShowFrames={onShowFrames}
            />
          ))}
        </div>
      </details>
    ) : "requests" in row ? (
      <InlineRequests requests={row.requests} />
    ) : (
      <div className="mb-3 pl-1.5 pr-[3.75rem]">
        <TurnFooter turn={row.turn} index={row.index} waiting={row.waiting} />
      </div>
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
