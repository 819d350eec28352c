/**
 * Runs one side of a comparison on its session store: start the agent in the
 * side's own workspace, initialize, session/new there, one session/prompt.
 * Permissions are granted (policy "auto"): both sides are unattended, and
 * each can only touch its own throw-away workspace.
 */
import { CLIENT_INFO } from "@/lib/protocol/client-capabilities";
import { isObject } from "@/lib/protocol/json";
import type { SessionStore } from "../state/session-store";
import { AGENT_METHODS, CLIENT_METHODS } from "@/lib/protocol/methods";

export interface SideSetup {
  profile: string;
  options?: Record<string, string>;
}

export type SideOutcome = { ok: true; transcriptId?: string } | { ok: false; message: string; transcriptId?: string };

/** No fs capabilities, as `acp-playground compare`: Gemini then writes files itself (docs/gemini-quirks.md). */
const CAPABILITIES = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };

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

export async function runSide(
  store: SessionStore,
  setup: SideSetup,
  workspace: { cwd: string; path: string },
  prompt: string,
): Promise<SideOutcome> {
  if (!(await connected(store))) return { ok: false, message: "not connected to the relay" };
  const policyError = await store.setPolicies({ [CLIENT_METHODS.session_request_permission]: "auto" });
  if (policyError) return { ok: false, message: policyError.message };
  const started = await store.startAgent(setup.profile, workspace.cwd, { options: setup.options });
  if (!started.ok) return { ok: false, message: started.error.message };
  const transcriptId = started.agent.transcriptId;
  const fail = (step: string, outcome: { kind: string; message?: string; error?: { message?: string } }) => ({
    ok: false as const,
    transcriptId,
    message: `${step}: ${outcome.kind === "error" ? outcome.error?.message : (outcome.message ?? outcome.kind)}`,
  });
  const { PROTOCOL_VERSION } = await import("@agentclientprotocol/sdk");
  const init = await store.request(AGENT_METHODS.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: CAPABILITIES,
    clientInfo: CLIENT_INFO,
  });
  if (init.kind !== "result") return fail(AGENT_METHODS.initialize, init);
  const created = await store.request(AGENT_METHODS.session_new, { cwd: workspace.path, mcpServers: [] });
  if (created.kind !== "result") return fail(AGENT_METHODS.session_new, created);
  const sessionId = isObject(created.result) ? created.result.sessionId : undefined;
  if (typeof sessionId !== "string") return { ok: false, transcriptId, message: "session/new: no sessionId" };
  const turn = await store.request(AGENT_METHODS.session_prompt, {
    sessionId,
    prompt: [{ type: "text", text: prompt }],
  });
  if (turn.kind !== "result") return fail(AGENT_METHODS.session_prompt, turn);
  return { ok: true, transcriptId };
}
