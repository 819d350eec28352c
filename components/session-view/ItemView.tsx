"use client";
/**
 * One conversation item with its frame reference: clicking it selects its
 * source frames (highlighted in the Frames view), the "#seq" link opens them.
 * Memoised by item reference: the reducer shares unchanged items, so only the
 * items a batch touched re-render.
 */
import { memo, type ReactNode } from "react";
import type { SeqList, ViewItem } from "@/lib/folds/session-view";
import { AgentMessage, ThoughtBlock, UserMessage } from "./MessageViews";
import { AgentTerminalView, CompactionMarker, SessionMessageView, StateLine, SubagentCard } from "./NewItems";
import { EventLine, PlanView, UnknownView } from "./SmallItems";
import { ToolCallCard } from "./ToolCallCard";

function ItemBody({ item }: { item: ViewItem }) {
  switch (item.type) {
    case "user_message":
      return <UserMessage item={item} />;
    case "agent_message":
      return <AgentMessage item={item} />;
    case "thought":
      return <ThoughtBlock item={item} />;
    case "tool_call":
      return <ToolCallCard item={item} />;
    case "plan":
      return <PlanView item={item} />;
    case "event":
      return <EventLine item={item} />;
    case "compaction":
      return <CompactionMarker item={item} />;
    case "session_message":
      return <SessionMessageView item={item} />;
    case "subagent":
      return <SubagentCard item={item} />;
    case "terminal":
      return <AgentTerminalView item={item} />;
    case "state":
      return <StateLine item={item} />;
    case "unknown":
      return <UnknownView item={item} />;
  }
}

interface Props {
  item: ViewItem;
  highlighted: boolean;
  onSelect: (item: ViewItem) => void;
  onShowFrames: (item: ViewItem) => void;
}

/** An item's "#seq +n" link: its source frames in the Frames view (a click never selects the item). */
export function ShowFramesButton({ first, count, onShow }: { first?: number; count: number; onShow: () => void }) {
  return (
    <button
      type="button"
      data-testid="show-frames"
      onClick={(e) => {
        e.stopPropagation();
        onShow();
      }}
      title={`Show ${count} source frame${count === 1 ? "" : "s"} in the Frames view`}
      className="justify-self-end pr-1.5 font-mono text-[10px] text-zinc-600 hover:text-sky-300"
    >
      #{first}
      {count > 1 ? <span className="text-zinc-400"> +{count - 1}</span> : null}
    </button>
  );
}

/**
 * A conversation item's row (the session view's, the thread view's): a click selects it, highlighted
 * while its frames are selected; its "#seq" link on the right.
 */
export function ItemRow<T extends { type: string; seqs: SeqList }>({
  testId,
  item,
  highlighted,
  onSelect,
  onShowFrames,
  children,
}: {
  testId: string;
  item: T;
  highlighted: boolean;
  onSelect: (item: T) => void;
  onShowFrames: (item: T) => void;
  children: ReactNode;
}) {
  return (
    <div
      data-testid={testId}
      data-type={item.type}
      data-seq={item.seqs.first}
      data-highlighted={highlighted}
      onClick={() => onSelect(item)}
      className={`grid grid-cols-[minmax(0,1fr)_3.25rem] items-start gap-2 rounded-md py-1 pl-1.5 transition-colors ${
        highlighted ? "bg-amber-400/[0.06] ring-1 ring-amber-400/50" : "hover:bg-zinc-900/40"
      }`}
    >
      {children}
      <ShowFramesButton first={item.seqs.first} count={item.seqs.length} onShow={() => onShowFrames(item)} />
    </div>
  );
}

export const ItemView = memo(function ItemView({ item, highlighted, onSelect, onShowFrames }: Props) {
  return (
    <ItemRow testId="sv-item" item={item} highlighted={highlighted} onSelect={onSelect} onShowFrames={onShowFrames}>
      <div className="min-w-0">
        <ItemBody item={item} />
        {item.outOfTurn ? (
          <div className="mt-0.5 text-[10px] text-amber-400/80">arrived after the turn ended</div>
        ) : null}
      </div>
    </ItemRow>
  );
});
