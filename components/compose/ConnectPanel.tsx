"use client";
/**
 * The bottom of the conversation: how Connect is going, then the prompt box of the session it opened
 * (what the session negotiated is in the connection strip).
 */
import type { ConnectProgress } from "@/lib/features/connect/connect-steps";
import { isObject } from "@/lib/protocol/json";
import { specOf } from "@/lib/features/protocols/registry";
import { selectPromptSessionId, selectProtocol } from "../state/session-store";
import { useSession } from "../state/use-session";
import { ProvidersForm } from "./ProvidersForm";
import { AuthChooser } from "./AuthChooser";
import { PromptBox } from "./PromptBox";
import { alert } from "./ui";
import { ConnectDiagnosis } from "../doctor/ConnectDiagnosis";
import { AGENT_METHODS } from "@/lib/protocol/methods";
import { APP_SERVER_CLIENT } from "@/lib/protocol/app-server-methods";

const STEP_TEXT: Record<ConnectProgress["step"], string> = {
  start: "starting the agent…",
  [AGENT_METHODS.initialize]: "initialize…",
  [AGENT_METHODS.authenticate]: "authenticate…",
  [AGENT_METHODS.session_new]: "session/new…",
  [APP_SERVER_CLIENT.thread_start]: "thread/start…",
  ready: "ready",
  failed: "failed",
};

/**
 * What Connect did beyond the plain handshake, in words: a warm agent, the version it negotiated (the
 * connection strip shows the version itself once ready: `version` false then says it only when the agent
 * answered another than was asked), the sign-in.
 */
export function connectDetail(p: ConnectProgress, version = true): string {
  const method = p.authMethods?.find((m) => m.id === p.authMethodId)?.name ?? p.authMethodId;
  const mismatch = p.requestedVersion !== undefined && p.requestedVersion !== p.negotiatedVersion;
  return [
    p.pooled ? "warm agent from the pool (already initialized)" : undefined,
    p.negotiatedVersion !== undefined && (version || mismatch)
      ? `${version ? `protocol v${p.negotiatedVersion}` : ""}${
          mismatch ? ` (asked for v${p.requestedVersion}; the agent answered v${p.negotiatedVersion})` : ""
        }`.trim()
      : undefined,
    p.authMethodId ? (p.authenticated ? `authenticated with ${method}` : `authenticating with ${method}…`) : undefined,
  ]
    .filter(Boolean)
    .join(" · ");
}

/** Connect on its way, or failed (a ready one is summed up in the connection strip). */
function Progress({ p }: { p: ConnectProgress }) {
  const noun = specOf(useSession(selectProtocol)).promptClient.noun;
  const detail = connectDetail(p);
  return (
    <div data-testid="connect-status" data-step={p.step} className="flex flex-col gap-1 text-xs">
      <p className={p.step === "ready" ? "text-emerald-300" : p.step === "failed" ? "text-red-300" : "text-amber-300"}>
        Connect: {STEP_TEXT[p.step]}
        {p.sessionId ? (
          <span className="text-zinc-400">
            {" "}
            · {noun} {p.sessionId}
          </span>
        ) : null}
      </p>
      {detail ? (
        <p data-testid="connect-detail" className="text-[11px] text-zinc-500">
          {detail}
        </p>
      ) : null}
      {p.step === "failed" ? (
        <ConnectDiagnosis fallback={p.message ? <p className={alert}>{p.message}</p> : null} />
      ) : p.step !== "ready" ? (
        <ConnectDiagnosis live />
      ) : null}
    </div>
  );
}

export function ConnectPanel() {
  const handshake = useSession((s) => s.handshake);
  // ACP's session, or the app-server's thread: where Connect lands.
  const client = specOf(useSession(selectProtocol)).promptClient;
  const sessionId = useSession(selectPromptSessionId);
  const running = useSession((s) => s.agent.state === "running");
  // agentCapabilities.providers (v1 unstable): a value other than null or absent advertises providers/*.
  const providers = useSession((s) => {
    const caps = s.facts.initialize?.result?.agentCapabilities;
    return isObject(caps) && caps.providers !== undefined && caps.providers !== null;
  });
  return (
    <section className="flex flex-col gap-2 px-3 py-2 empty:hidden" aria-label="Prompt" data-testid="prompt-panel">
      {/* A finished Connect is summed up in the connection strip (and of an agent that is gone, is history). */}
      {handshake && handshake.step !== "ready" ? <Progress p={handshake} /> : null}
      {handshake?.ask ? <AuthChooser ask={handshake.ask} /> : null}
      {running && sessionId ? (
        <>
          <PromptBox sessionId={sessionId} />
          {providers ? <ProvidersForm /> : null}
        </>
      ) : running ? (
        <p className="text-xs text-zinc-500">
          The agent is running without a {client.noun}: open one in Compose (session/new), or stop it and press Connect.
        </p>
      ) : null}
    </section>
  );
}
