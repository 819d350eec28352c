/**
 * ACP v1's spec: the Agent Client Protocol as the playground speaks it (lib/features/connect/handshake.ts,
 * the probe in lib/features/probe/probe.ts and probe/, the session view in lib/folds/session-view/).
 */
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { EMPTY_FACTS_STATE, foldFacts } from "../../../folds/agent-facts";
import { sessionTopic } from "../../../folds/conversation-topic";
import type { SessionViewState } from "../../../folds/session-view";
import { isObject } from "../../../protocol/json";
import { AGENT_METHODS } from "../../../protocol/methods";
import { PROTOCOLS } from "../../../protocol/protocols";
import { ACP_COMPOSE_RULES } from "../../compose/catalog";
import { acpTurns } from "./compare-turns";
import { ACP_PROMPT_CLIENT } from "../../connect/flow-prompt";
import { outcomeText, runHandshake } from "../../connect/handshake";
import { REPLAY_NOTE_META, type ProtocolSpec } from "../spec";

/** No fs capabilities by default: Gemini then writes files itself (docs/gemini-quirks.md). */
export const COMPARE_CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: false, writeTextFile: false },
  terminal: false,
};

export const ACP_SPEC: ProtocolSpec<SessionViewState> = {
  ...PROTOCOLS.acp,
  name: "acp",
  poolable: true,
  connect: async (deps, input, limits, { pooled }) => {
    const initialized = pooled ? await deps.pooledInitialize() : undefined;
    return runHandshake(
      {
        port: { request: (method, params) => deps.request(method, params) },
        progress: (p) => deps.progress({ ...p, pooled }),
        ...(deps.chooseAuth ? { chooseAuth: (r) => deps.chooseAuth!(r) } : {}),
      },
      { ...input, timeouts: limits, ...(initialized ? { initialized } : {}) },
    );
  },
  side: {
    open: (port, input) =>
      runHandshake(
        { port },
        { cwd: input.cwd, clientCapabilities: input.clientCapabilities ?? COMPARE_CLIENT_CAPABILITIES },
      ),
    turn: async (port, input, sessionId) => {
      const turn = await port.request(
        AGENT_METHODS.session_prompt,
        { sessionId, prompt: [{ type: "text", text: input.prompt }] },
        input.promptTimeoutMs === undefined ? {} : { timeoutMs: input.promptTimeoutMs },
      );
      if (turn.kind !== "result") return { ok: false, message: `session/prompt failed: ${outcomeText(turn)}` };
      const stopReason = isObject(turn.result) ? turn.result.stopReason : undefined;
      return { ok: true, stopReason: typeof stopReason === "string" ? stopReason : null };
    },
  },
  promptClient: ACP_PROMPT_CLIENT,
  // Loaded when a probe runs: the pages that only show a conversation (the one-file export) leave it out.
  probe: (driver, options) => import("../../probe/probe").then((m) => m.runAcpProbe(driver, options)),
  // The relay answers ACP's requests itself (lib/features/answers/policy.ts, server/agents/client-services.ts).
  answer: () => undefined,
  // ACP's facts and session view (the facts read the sessions from the view).
  emptyConversation: EMPTY_FACTS_STATE.view,
  foldLog(frames, prev) {
    const { facts, view } = foldFacts(frames, { facts: prev.facts, view: prev.conversation });
    return facts === prev.facts && view === prev.conversation ? prev : { facts, conversation: view };
  },
  topic: sessionTopic,
  compareTurns: acpTurns,
  compose: ACP_COMPOSE_RULES,
  ids: {
    keys: new Map([
      ["sessionId", "session"],
      ["toolCallId", "tool"],
    ]),
    owners: new Map(),
    rolloutTime: false,
  },
  rerunLeaveOut: () => undefined,
  replayNote: (params, said) => ({
    method: "session/update",
    params: {
      sessionId: isObject(params) ? params.sessionId : undefined,
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `*${said}*\n\n` } },
      _meta: { [REPLAY_NOTE_META]: true },
    },
  }),
};
