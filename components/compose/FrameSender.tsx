"use client";
/**
 * The exact frame a form makes, before it is sent: validation issues, Send
 * (only when valid), "Send anyway" (invalid on purpose), "Edit as raw" (the
 * raw editor takes it from here), and the agent's answer once it comes.
 */
import { useState } from "react";
import { METHOD_NOT_FOUND } from "@/lib/folds/agent-facts";
import type { ComposeWarning } from "@/lib/features/compose/catalog";
import { describeError, type RpcOutcome } from "@/lib/protocol/jsonrpc";
import type { SchemaIssue } from "@/lib/protocol/schema-check";
import { JsonRpcErrorView } from "../JsonRpcErrorView";
import { forProtocol } from "@/lib/protocol/protocols";
import { selectProtocol } from "../state/session-store";
import { useSession, useSessionStore } from "../state/use-session";
import { button, primary } from "./ui";

interface Props {
  method: string;
  params: unknown;
  notification: boolean;
  issues: readonly SchemaIssue[];
  warnings: readonly ComposeWarning[];
  onToRaw: (text: string) => void;
}

type Sent =
  | { state: "sending" }
  | { state: "waiting"; id: number }
  | { state: "done"; id?: number; outcome: RpcOutcome }
  | { state: "sent" };

function OutcomeLine({ sent }: { sent: Sent }) {
  if (sent.state === "sending") return <span>sending…</span>;
  if (sent.state === "sent") return <span>sent (a notification has no answer)</span>;
  if (sent.state === "waiting") return <span>id {sent.id}: waiting for the answer…</span>;
  const o = sent.outcome;
  if (o.kind === "failed") return <span className="text-red-300">{o.message}</span>;
  if (o.kind === "error" && o.error.code === METHOD_NOT_FOUND) {
    // An agent that lacks a method is information about the agent, not a failure of the playground.
    return (
      <span className="text-amber-300">
        id {sent.id}: not supported by this agent ({describeError(o.error)})
      </span>
    );
  }
  if (o.kind === "error") return <JsonRpcErrorView error={o.error} prefix={`id ${sent.id}: error `} />;
  return (
    <span className="text-emerald-300">
      id {sent.id}: result at frame #{o.frame.seq}
    </span>
  );
}

export function FrameSender({ method, params, notification, issues, warnings, onToRaw }: Props) {
  const store = useSessionStore();
  const nextId = useSession((s) => s.maxRequestId) + 1;
  const running = useSession((s) => s.agent.state === "running");
  const [sent, setSent] = useState<Sent>();
  const protocol = useSession(selectProtocol);
  // As the relay writes it: the app-server's messages leave out "jsonrpc".
  const frame = forProtocol(
    protocol,
    notification ? { jsonrpc: "2.0", method, params } : { jsonrpc: "2.0", id: nextId, method, params },
  );
  const blocking = warnings.filter((w) => w.blocking);
  const advisory = warnings.filter((w) => !w.blocking);
  const invalid = issues.length + blocking.length > 0;

  const send = async () => {
    setSent({ state: "sending" });
    if (notification) {
      const res = await store.notify(method, params);
      setSent(
        res.ok
          ? { state: "sent" }
          : { state: "done", outcome: { kind: "failed", reason: "unsent", message: res.error } },
      );
      return;
    }
    const id = store.nextRequestId();
    setSent({ state: "waiting", id });
    const outcome = await store.sendRequest({ jsonrpc: "2.0", id, method, params });
    setSent({ state: "done", id, outcome });
  };

  return (
    <div className="flex flex-col gap-1.5">
      {issues.length + blocking.length ? (
        <ul data-testid="compose-issues" className="flex flex-col gap-0.5 rounded bg-red-950/40 px-2 py-1">
          {issues.map((i, n) => (
            <li key={`i${n}`} className="font-mono text-[11px] text-red-300">
              {i.path}: {i.message}
            </li>
          ))}
          {blocking.map((w, n) => (
            <li key={`b${n}`} className="font-mono text-[11px] text-amber-300">
              {w.path ? `${w.path}: ` : ""}
              {w.message}
            </li>
          ))}
        </ul>
      ) : null}
      {advisory.length ? (
        <ul data-testid="compose-warnings" className="flex flex-col gap-0.5 rounded bg-amber-950/40 px-2 py-1">
          {advisory.map((w, n) => (
            <li
              key={n}
              data-testid={w.path?.startsWith("params.clientCapabilities") ? "capability-warning" : undefined}
              className="text-[11px] text-amber-200"
            >
              {w.path ? <span className="font-mono">{w.path}: </span> : null}
              {w.message}
            </li>
          ))}
        </ul>
      ) : null}
      <pre
        data-testid="compose-preview"
        // Reachable by keyboard, so a frame longer than the box can be read without a mouse.
        tabIndex={0}
        aria-label="The frame that Send sends"
        className="max-h-56 overflow-auto outline-none focus-visible:ring-2 focus-visible:ring-sky-500 rounded border border-zinc-800 bg-zinc-950 p-2 font-mono text-[11px] leading-snug text-zinc-300"
      >
        {JSON.stringify(frame, null, 2)}
      </pre>
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          data-testid="compose-send"
          className={primary}
          disabled={!running || invalid || sent?.state === "sending"}
          onClick={() => void send()}
        >
          Send {notification ? "notification" : "request"}
        </button>
        {invalid ? (
          <button
            type="button"
            data-testid="compose-send-anyway"
            className={button}
            disabled={!running}
            onClick={() => void send()}
            title="Send this frame although it does not pass the checks"
          >
            Send anyway
          </button>
        ) : null}
        <button
          type="button"
          data-testid="compose-to-raw"
          className={button}
          onClick={() => onToRaw(JSON.stringify(frame, null, 2))}
        >
          Edit as raw
        </button>
        {!running ? <span className="text-[11px] text-zinc-500">start an agent to send</span> : null}
      </div>
      {sent ? (
        <div data-testid="compose-outcome" data-state={sent.state} className="text-[11px] text-zinc-400">
          <OutcomeLine sent={sent} />
        </div>
      ) : null}
    </div>
  );
}
