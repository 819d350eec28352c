/**
 * Runs one side of a comparison on its session store: start the agent in the
 * side's own workspace, then the side's handshake and prompt in its profile's
 * protocol (lib/features/compare/side.ts, as `acp-playground compare` runs them).
 * Permissions and approvals are granted (policy "auto"): both sides are
 * unattended, and each can only touch its own throw-away workspace.
 */
import { runSide } from "@/lib/features/compare/side";
import type { SessionStore } from "../state/session-store";
import { CLIENT_METHODS } from "@/lib/protocol/methods";
import { APP_SERVER_ANSWERABLE } from "@/lib/contracts/policies";

/** Permission requests (ACP) and approvals and questions (Codex's app-server) answered "auto". */
const COMPARE_POLICIES = Object.fromEntries(
  [CLIENT_METHODS.session_request_permission, ...APP_SERVER_ANSWERABLE].map((m) => [m, "auto" as const]),
);

export interface SideSetup {
  profile: string;
  options?: Record<string, string>;
}

export type SideOutcome = { ok: true; transcriptId?: string } | { ok: false; message: string; transcriptId?: string };

/** Resolves once the store's socket is up; false when the relay refuses it or it takes too long. */
function connected(store: SessionStore, timeoutMs = 15_000): Promise<boolean> {
  return new Promise((resolve) => {
    const check = () => {
      const state = store.getSnapshot().connection;
      if (state === "connected" || state === "unauthorized" || state === "no-token") done(state === "connected");
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    const unsubscribe = store.subscribe(check);
    function done(ok: boolean) {
      clearTimeout(timer);
      unsubscribe();
      resolve(ok);
    }
    check();
  });
}

export async function runSideInTab(
  store: SessionStore,
  setup: SideSetup,
  workspace: { cwd: string; path: string },
  prompt: string,
): Promise<SideOutcome> {
  if (!(await connected(store))) return { ok: false, message: "not connected to the relay" };
  const policyError = await store.setPolicies(COMPARE_POLICIES);
  if (policyError) return { ok: false, message: policyError.message };
  const started = await store.startAgent(setup.profile, workspace.cwd, { options: setup.options });
  if (!started.ok) return { ok: false, message: started.error.message };
  const transcriptId = started.agent.transcriptId;
  const end = await runSide(store, { cwd: workspace.path, prompt, protocol: started.agent.protocol });
  return end.ok ? { ok: true, transcriptId } : { ok: false, transcriptId, message: end.message };
}
