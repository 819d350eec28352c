"use client";
/**
 * "Send to …": a finished transcript sent as OpenTelemetry traces to the endpoint the server was
 * started with (`serve --otlp`, docs/otel.md), with the spans sent so far and the backend's answer.
 * Nothing shows when no endpoint is configured.
 */
import { useEffect, useState } from "react";
import type { OtlpTargetInfo } from "@/lib/contracts/otlp-api";
import type { TranscriptsClient } from "./use-transcripts";

const action = "rounded px-2 py-0.5 text-xs text-zinc-300 hover:bg-zinc-800 hover:text-zinc-100 disabled:opacity-40";

/** One question per client (a page of rows asks once). */
const targets = new WeakMap<TranscriptsClient, Promise<OtlpTargetInfo>>();
function targetOf(client: TranscriptsClient): Promise<OtlpTargetInfo> {
  let t = targets.get(client);
  if (!t) {
    t = client.otlpTarget().catch(() => ({ url: null }));
    targets.set(client, t);
  }
  return t;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

type Status =
  | { kind: "sending"; spans: number }
  | { kind: "done"; spans: number; traces: number }
  | { kind: "error"; message: string };

export interface OtlpSend {
  /** The endpoint's host, shown on the button. */
  host: string;
  title: string;
  disabled: boolean;
  status?: Status;
  send: () => Promise<void>;
}

/** The endpoint the server sends to (undefined while asked, or when none is configured) and how to send there. */
export function useOtlpSend(id: string, client: TranscriptsClient, recording?: boolean): OtlpSend | undefined {
  const [target, setTarget] = useState<OtlpTargetInfo>();
  const [status, setStatus] = useState<Status>();
  useEffect(() => {
    let live = true;
    void targetOf(client).then((t) => live && setTarget(t));
    return () => {
      live = false;
    };
  }, [client]);
  if (!target?.url) return undefined;
  const url = target.url;
  const send = async () => {
    setStatus({ kind: "sending", spans: 0 });
    try {
      await client.sendOtlp(id, (e) => {
        if (e.type === "progress") setStatus({ kind: "sending", spans: e.spans });
        else if (e.type === "done") setStatus({ kind: "done", spans: e.spans, traces: e.traces });
        else setStatus({ kind: "error", message: e.message });
      });
    } catch (err) {
      setStatus({ kind: "error", message: (err as Error).message });
    }
  };
  return {
    host: hostOf(url),
    title: recording
      ? `Being recorded: sent live to ${url}`
      : `Send as OpenTelemetry traces (one per turn) to ${url}${target.content ? ", with message contents" : ""}`,
    disabled: !!recording || status?.kind === "sending",
    status,
    send,
  };
}

/** What the last send did: spans so far, the backend's count, or its refusal. */
export function OtlpStatus({ otlp }: { otlp: OtlpSend }) {
  const { status, host } = otlp;
  if (!status) return null;
  return (
    <span
      data-testid="send-otlp-status"
      role={status.kind === "error" ? "alert" : "status"}
      className={`text-[11px] ${status.kind === "error" ? "text-red-300" : "text-zinc-400"}`}
    >
      {status.kind === "sending"
        ? `sending… ${status.spans} spans accepted`
        : status.kind === "done"
          ? `${host} accepted ${status.spans} spans in ${status.traces} traces`
          : status.message}
    </span>
  );
}

export function SendToOtlp({ id, client, recording }: { id: string; client: TranscriptsClient; recording?: boolean }) {
  const otlp = useOtlpSend(id, client, recording);
  if (!otlp) return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <button
        type="button"
        data-testid="send-otlp"
        className={action}
        disabled={otlp.disabled}
        title={otlp.title}
        onClick={() => void otlp.send()}
      >
        Send to {otlp.host}
      </button>
      <OtlpStatus otlp={otlp} />
    </span>
  );
}
