"use client";
/** `logout` (stable) and `auth/status` (unstable), each shown only when the agent's initialize advertised it. */
import { useState } from "react";
import { advertisedAuth, describeAuthStatus } from "@/lib/features/answers/request-cancel";
import { describeError } from "@/lib/protocol/jsonrpc";
import { AGENT_METHODS } from "@/lib/protocol/methods";
import { button } from "../compose/ui";
import { useSession, useSessionStore } from "../state/use-session";

export function AuthControls() {
  const store = useSessionStore();
  const result = useSession((s) => s.facts.initialize?.result);
  const running = useSession((s) => s.agent.state === "running");
  const [said, setSaid] = useState<string>();
  const [busy, setBusy] = useState(false);
  const auth = advertisedAuth(result);
  if (!running || (!auth.logout && !auth.status)) return null;
  const call = async (method: string, words: (result: unknown) => string) => {
    setBusy(true);
    const out = await store.request(method, {});
    setBusy(false);
    setSaid(
      out.kind === "result"
        ? `${method}: ${words(out.result)}`
        : out.kind === "error"
          ? `${method} failed: ${describeError(out.error)}`
          : `${method} failed: ${out.message}`,
    );
  };
  return (
    <div data-testid="auth-controls" className="flex flex-wrap items-center gap-1.5 text-xs">
      {auth.status ? (
        <button
          type="button"
          data-testid="auth-status"
          className={button}
          disabled={busy}
          onClick={() => void call(AGENT_METHODS.auth_status, describeAuthStatus)}
          title="auth/status (unstable): ask the agent whether it is signed in"
        >
          Auth status
        </button>
      ) : null}
      {auth.logout ? (
        <button
          type="button"
          data-testid="auth-logout"
          className={button}
          disabled={busy}
          onClick={() => void call(AGENT_METHODS.logout, () => "signed out")}
          title="logout: end the agent's authenticated session"
        >
          Log out
        </button>
      ) : null}
      {said ? (
        <span data-testid="auth-said" role="status" className="text-zinc-400">
          {said}
        </span>
      ) : null}
    </div>
  );
}
