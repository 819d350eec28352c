"use client";
/**
 * The agent's requests that wait for the user, shown in the conversation
 * where the turn is waiting: the same answer buttons as the prompt dock's
 * cards, with keyboard shortcuts on the first one.
 */
import type { Frame } from "@/lib/protocol/frame";
import { isObject } from "@/lib/protocol/json";
import { RequestBody } from "./PendingCard";
import { INLINE_REQUEST, KEYS_HINT } from "./shortcuts";
import { ToolCallCardAbove } from "./ToolCallView";

/** The session a pending request belongs to (undefined when its params name none). */
export function requestSessionId(frame: Frame): string | undefined {
  const m = frame.message;
  const params = isObject(m) && isObject(m.params) ? m.params : undefined;
  return typeof params?.sessionId === "string" ? params.sessionId : undefined;
}

export function InlineRequests({ requests }: { requests: readonly Frame[] }) {
  return (
    <div className="flex flex-col gap-1.5 pl-1.5 pr-[3.75rem]" data-testid="inline-requests">
      {requests.map((frame, i) => (
        <section
          key={frame.seq}
          id={`request-${frame.seq}`}
          data-testid={INLINE_REQUEST}
          data-method={frame.method}
          data-seq={frame.seq}
          aria-label={`The agent asks: ${frame.method}`}
          className="flex flex-col gap-1.5 rounded-md border border-amber-500/50 bg-amber-500/5 p-2"
        >
          <header className="flex items-center gap-2 text-[11px]">
            <span className="font-medium text-amber-200">The agent asks</span>
            <span className="font-mono text-amber-300/90">{frame.method}</span>
            {i === 0 ? (
              <span data-testid="keys-hint" className="ml-auto text-zinc-400">
                {KEYS_HINT}
              </span>
            ) : null}
          </header>
          {/* The Session view merges a permission request into its tool call's card, above this one. */}
          <ToolCallCardAbove.Provider value>
            <RequestBody frame={frame} shortcuts={i === 0} />
          </ToolCallCardAbove.Provider>
        </section>
      ))}
    </div>
  );
}
