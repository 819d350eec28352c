"use client";
/**
 * One agent->client request waiting for an answer: its method, id and age
 * (the header drafts a result in the raw editor), a card for what it asks,
 * and "by hand" drafts for any result or error.
 */
import { useEffect, useRef } from "react";
import { errorDraft } from "@/lib/features/answers/agent-answers";
import type { Frame } from "@/lib/protocol/frame";
import { formatAge } from "../compose/use-now";
import { button } from "../compose/ui";
import { formatId } from "../format";
import { responseTemplate } from "../templates";
import { useSession } from "../state/use-session";
import { PROTOCOL_CARDS } from "../protocol-cards";
import { selectProtocol } from "../state/session-store";
import { PENDING_CARD } from "./shortcuts";

/** What the request asks, with its answer buttons, by the tab's agent's protocol (components/protocol-cards.ts). */
export function RequestBody({ frame, shortcuts = false }: { frame: Frame; shortcuts?: boolean }) {
  const Card = PROTOCOL_CARDS[useSession(selectProtocol)];
  return <Card frame={frame} shortcuts={shortcuts} />;
}

/** Brings the request's card in the Session view into view, switching to that view first. */
function showInConversation(seq: number) {
  // The view switch belongs to ViewPane; its tab is a plain button to press.
  document.querySelector<HTMLButtonElement>('[data-testid="view-session"][aria-selected="false"]')?.click();
  requestAnimationFrame(() => {
    const card = document.getElementById(`request-${seq}`);
    card?.scrollIntoView({ block: "center" });
    card?.querySelector<HTMLButtonElement>("button[data-primary='true'], button")?.focus();
  });
}

export function PendingCard({
  frame,
  now,
  onDraft,
  shortcuts = false,
}: {
  frame: Frame;
  now: number;
  onDraft: (draft: string) => void;
  /** The first waiting card: its buttons take the answer keys when the conversation does not show it. */
  shortcuts?: boolean;
}) {
  const policy = useSession((s) => (frame.method ? s.policies?.[frame.method] : undefined));
  const ref = useRef<HTMLLIElement>(null);
  // A new request waits for the user: bring it into view in the (scrolling) prompt dock.
  useEffect(() => {
    // A block body: newer browsers return a promise from scrollIntoView, which must not become the cleanup.
    ref.current?.scrollIntoView({ block: "nearest" });
  }, []);
  return (
    <li
      ref={ref}
      data-testid={PENDING_CARD}
      data-method={frame.method}
      data-seq={frame.seq}
      className="flex flex-col gap-1.5 rounded border border-amber-500/30 bg-amber-500/5 p-1.5"
    >
      <button
        type="button"
        data-testid="pending-request"
        data-seq={frame.seq}
        onClick={() => onDraft(responseTemplate(frame))}
        className="flex w-full flex-col gap-0.5 rounded px-1 text-left font-mono text-xs hover:bg-amber-500/10"
        title="Draft a result for this request in the raw editor"
      >
        <span className="flex items-center gap-2">
          <span className="truncate text-amber-300">{frame.method}</span>
          {policy ? <span className="ml-auto text-[10px] text-zinc-500">policy {policy}</span> : null}
        </span>
        <span className="text-[11px] text-zinc-500">
          id {formatId(frame.id)} · seq {frame.seq} ·{" "}
          <span data-testid="pending-age">waiting {formatAge(Math.max(0, now - frame.ts))}</span>
        </span>
      </button>
      <RequestBody frame={frame} shortcuts={shortcuts} />
      <button
        type="button"
        data-testid="pending-show"
        className="self-start text-[11px] text-sky-300 hover:underline"
        onClick={() => showInConversation(frame.seq)}
      >
        show in the conversation ↗
      </button>
      <div className="flex items-center gap-1 text-[11px] text-zinc-500">
        by hand:
        <button
          type="button"
          data-testid="pending-draft-result"
          className={button}
          onClick={() => onDraft(responseTemplate(frame))}
        >
          result…
        </button>
        <button
          type="button"
          data-testid="pending-draft-error"
          className={button}
          onClick={() => onDraft(errorDraft(frame))}
        >
          error…
        </button>
      </div>
    </li>
  );
}
