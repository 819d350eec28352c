"use client";
/** The "Prompt" tab: how Connect is going, then the prompt box of the session it opened. */
import type { ConnectProgress } from "@/lib/features/connect/connect-steps";
import { negotiatedVersion } from "@/lib/folds/agent-facts";
import { isObject } from "@/lib/protocol/json";
import { specOf } from "@/lib/features/protocols/registry";
import { selectProtocol } from "../state/session-store";
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

function Progress({ p }: { p: ConnectProgress }) {
  const noun = specOf(useSession(selectProtocol)).promptClient.noun;
  const method = p.authMethods?.find((m) => m.id === p.authMethodId)?.name ?? p.authMethodId;
  const detail = [
    p.pooled ? "warm agent from the pool (already initialized)" : undefined,
    p.negotiatedVersion !== undefined
      ? `protocol v${p.negotiatedVersion}${
          p.requestedVersion !== undefined && p.requestedVersion !== p.negotiatedVersion
            ? ` (asked for v${p.requestedVersion}; the agent answered v${p.negotiatedVersion})`
            : ""
        }`
      : undefined,
    p.authMethodId ? (p.authenticated ? `authenticated with ${method}` : `authenticating with ${method}…`) : undefined,
  ]
    .filter(Boolean)
    .join(" · ");
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
  const sessionId = useSession((s) => client.sessionId(s));
  const running = useSession((s) => s.agent.state === "running");
  const version = useSession((s) => negotiatedVersion(s.facts));
  // agentCapabilities.providers (v1 unstable): a value other than null or absent advertises providers/*.
  const providers = useSession((s) => {
    const caps = s.facts.initialize?.result?.agentCapabilities;
    return isObject(caps) && caps.providers !== undefined && caps.providers !== null;
  });
  const modeId = useSession((s) =>
    s.facts.sessionId ? s.facts.sessions[s.facts.sessionId]?.currentModeId : undefined,
  );
  return (
    <section className="flex flex-col gap-2 p-3" aria-label="Prompt" data-testid="prompt-panel">
      {/* A finished Connect of an agent that is gone is history, not status. */}
      {handshake && (handshake.step !== "ready" || running) ? <Progress p={handshake} /> : null}
      {handshake?.ask ? <AuthChooser ask={handshake.ask} /> : null}
      {running && sessionId ? (
        <>
          <p className="truncate text-[11px] text-zinc-500" title={sessionId}>
            {client.noun} <code className="text-zinc-300">{sessionId}</code>
            {version !== undefined ? (
              <>
                {" "}
                · protocol{" "}
                <code data-testid="negotiated-version" className={version === 2 ? "text-fuchsia-300" : "text-zinc-300"}>
                  v{version}
                </code>
              </>
            ) : null}
            {modeId ? (
              <>
                {" "}
                · mode <code className="text-zinc-300">{modeId}</code>
              </>
            ) : null}
          </p>
          <PromptBox sessionId={sessionId} />
          {providers ? <ProvidersForm /> : null}
        </>
      ) : (
        <p className="text-xs text-zinc-500">
          {running
            ? "The agent is running without a session: open one in Compose (session/new), or stop it and press Connect."
            : "Press Connect: it starts the agent, initializes it, opens a session in the chosen cwd, and brings you here to prompt."}
        </p>
      )}
    </section>
  );
}
