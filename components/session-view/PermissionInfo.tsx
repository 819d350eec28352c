"use client";
/** The permission request merged into a tool call: the options offered and what the client chose. */
import { JsonRpcErrorView } from "../JsonRpcErrorView";
import type { PermissionView } from "@/lib/folds/session-view";
import { useLiveState, type LiveState } from "./live-state";

const KIND_STYLE: Record<string, string> = {
  allow_once: "border-emerald-700/60 text-emerald-300",
  allow_always: "border-emerald-700/60 text-emerald-300",
  reject_once: "border-red-800/60 text-red-300",
  reject_always: "border-red-800/60 text-red-300",
};

function Outcome({ p, live }: { p: PermissionView; live: LiveState }) {
  if (p.error) return <JsonRpcErrorView error={p.error} prefix="answered with error: " />;
  if (!p.outcome)
    return p.responseSeq === undefined ? (
      live === "stopped" ? (
        <span data-testid="permission-ended" className="text-zinc-300">
          not answered: the agent stopped
        </span>
      ) : live === "live" ? (
        // The question is asked once, in the card where the turn waits; here only a pointer to it.
        <a
          href={`#request-${p.requestSeq}`}
          data-testid="permission-pointer"
          className="text-amber-300 hover:underline"
          onClick={(e) => e.stopPropagation()}
        >
          waiting for your answer ↓
        </a>
      ) : (
        <span className="text-amber-300">waiting for the answer</span>
      )
    ) : (
      <span className="text-zinc-400">answered</span>
    );
  if (p.outcome.outcome === "cancelled") return <span className="text-zinc-300">cancelled</span>;
  const { optionId } = p.outcome;
  // An option offered is marked ✓ among the options: said once. Only one not offered is named here.
  if (p.options.some((o) => o.optionId === optionId)) return null;
  return (
    <span className="text-zinc-200">
      chose <span className="font-medium">{optionId}</span>
    </span>
  );
}

export function PermissionInfo({ permission: p }: { permission: PermissionView }) {
  const live = useLiveState();
  const chosenId = p.outcome?.outcome === "selected" ? p.outcome.optionId : undefined;
  const state = p.error
    ? "error"
    : p.outcome
      ? p.outcome.outcome
      : p.responseSeq === undefined
        ? live === "stopped"
          ? "ended"
          : "pending"
        : "answered";
  return (
    <div data-testid="tool-permission" data-state={state} className="flex flex-wrap items-center gap-1.5 text-[11px]">
      <span className="text-zinc-500">permission</span>
      {/* While the card below asks, its options are not repeated here. */}
      {(state === "pending" && live === "live" ? [] : p.options).map((o) => (
        <span
          key={o.optionId}
          data-testid="permission-option"
          data-option-id={o.optionId}
          data-option-kind={o.kind}
          data-chosen={o.optionId === chosenId}
          title={`${o.optionId} (${o.kind})`}
          className={
            state === "pending"
              ? "text-zinc-400 after:ml-1.5 after:text-zinc-500 after:content-['·'] last-of-type:after:content-none"
              : // Options not chosen step back by colour, not by opacity: dimmed text fell below 4.5:1.
                `rounded border px-1.5 py-px ${
                  o.optionId === chosenId
                    ? `${KIND_STYLE[o.kind] ?? "border-zinc-700 text-zinc-300"} bg-zinc-100/10 ring-1 ring-zinc-300/50`
                    : "border-zinc-800 text-zinc-400"
                }`
          }
        >
          {o.optionId === chosenId ? "✓ " : ""}
          {o.name}
        </span>
      ))}
      <span className="ml-1">
        <Outcome p={p} live={live} />
      </span>
    </div>
  );
}
