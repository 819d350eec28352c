/**
 * Where Connect lands: the prompt box, per protocol. One client object per protocol says which
 * session the box prompts, what its turn is, and what sending and cancelling send: ACP's
 * `session/prompt` and `session/cancel` in the session opened last; the app-server's `turn/start`
 * in the thread opened last, `turn/steer` while a turn runs (it names the turn it expects), and
 * `turn/interrupt`. The prompt box and the Connect panel only ever go through these.
 */
import type { LogFolds } from "../../folds/agent-facts";
import { APP_SERVER_CLIENT } from "../../protocol/app-server-methods";
import { describeError, type RpcOutcome } from "../../protocol/jsonrpc";
import { AGENT_METHODS } from "../../protocol/methods";
import type { RequestPort } from "../../protocol/request-port";
import {
  turnInterruptParams,
  turnStartParams,
  turnSteerParams,
  type AppServerTurn,
} from "../protocols/codex-app-server/handshake";
import type { AppServerConversation } from "../protocols/codex-app-server/conversation";
import { outcomeText } from "./handshake";

/** A turn as the prompt box shows it, whatever the protocol. */
export interface PromptTurn {
  ts: number;
  ended: boolean;
  /** How it ended, as shown: ACP's stopReason, the app-server's turn status. */
  end?: { label: string; value: string };
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number; thoughtTokens?: number; from: string };
  /** Why it failed, one line naming what failed. */
  failure?: string;
  /** Ended without error, with no agent message and no stopReason (how an invalid model shows up). */
  emptyResponse: boolean;
}

export type PromptPort = Pick<RequestPort, "request" | "notify">;

/** `C`: the protocol's conversation (its spec's), which the client reads beside the facts. */
export interface PromptClient<C = unknown> {
  /** What the protocol calls the session: "session" (ACP), "thread" (the app-server). */
  readonly noun: string;
  /** Sending while a turn runs adds to it (steers); else Send waits for the turn to end. */
  readonly steers: boolean;
  /** The session the box prompts: the one opened last. */
  sessionId(state: LogFolds<C>): string | undefined;
  /** That session's newest turn, running or ended. */
  turn(state: LogFolds<C>, sessionId: string): PromptTurn | undefined;
  /** Sends text: a new turn, or more input for the running one when the protocol steers. */
  send(port: PromptPort, state: LogFolds<C>, sessionId: string, text: string): Promise<RpcOutcome>;
  /** Stops the running turn; why it could not, if it could not. */
  cancel(port: PromptPort, state: LogFolds<C>, sessionId: string): Promise<string | undefined>;
}

const failed = (message: string): RpcOutcome => ({ kind: "failed", reason: "unsent", message });

export const ACP_PROMPT_CLIENT: PromptClient = {
  noun: "session",
  steers: false,
  sessionId: (s) => s.facts.sessionId,
  turn(s, sessionId) {
    const t = s.facts.lastTurn;
    if (t?.sessionId !== sessionId) return undefined;
    return {
      ts: t.ts,
      ended: t.ended,
      ...(t.ended ? { end: { label: "stopReason", value: t.error ? "—" : JSON.stringify(t.stopReason ?? null) } } : {}),
      ...(t.usage ? { usage: { ...t.usage, from: `result.${t.usage.source}` } } : {}),
      ...(t.error ? { failure: `session/prompt failed: ${describeError(t.error)}` } : {}),
      emptyResponse: t.emptyResponse,
    };
  },
  send: (port, _s, sessionId, text) =>
    port.request(AGENT_METHODS.session_prompt, { sessionId, prompt: [{ type: "text", text }] }),
  async cancel(port, _s, sessionId) {
    const sent = await port.notify(AGENT_METHODS.session_cancel, { sessionId });
    return sent.ok ? undefined : sent.error;
  },
};

/** The app-server's turn of this thread. */
const threadTurn = (s: LogFolds<AppServerConversation>, threadId: string): AppServerTurn | undefined =>
  s.conversation.current.turn?.threadId === threadId ? s.conversation.current.turn : undefined;

export const APP_SERVER_PROMPT_CLIENT: PromptClient<AppServerConversation> = {
  noun: "thread",
  steers: true,
  sessionId: (s) => s.conversation.current.threadId,
  turn(s, threadId) {
    const t = threadTurn(s, threadId);
    if (!t) return undefined;
    const u = t.usage;
    return {
      ts: t.ts,
      ended: t.ended,
      ...(t.ended ? { end: { label: "status", value: JSON.stringify(t.status ?? null) } } : {}),
      ...(u
        ? {
            usage: {
              inputTokens: u.inputTokens,
              outputTokens: u.outputTokens,
              totalTokens: u.totalTokens,
              thoughtTokens: u.reasoningTokens,
              from: "thread/tokenUsage/updated (last, summed over the turn)",
            },
          }
        : {}),
      ...(t.error ? { failure: `${t.turnId ? "the turn" : "turn/start"} failed: ${t.error}` } : {}),
      emptyResponse: false,
    };
  },
  send(port, s, threadId, text) {
    const t = threadTurn(s, threadId);
    if (!t || t.ended) return port.request(APP_SERVER_CLIENT.turn_start, turnStartParams(threadId, text));
    // A running turn takes more input, for that turn only: its id must be known (turn/start answered).
    if (!t.turnId) return Promise.resolve(failed("the turn has no id yet (turn/start is unanswered): wait a moment"));
    return port.request(APP_SERVER_CLIENT.turn_steer, turnSteerParams(threadId, t.turnId, text));
  },
  async cancel(port, s, threadId) {
    const t = threadTurn(s, threadId);
    if (!t || t.ended) return "no turn is running";
    if (!t.turnId) return "the turn has no id yet (turn/start is unanswered): wait a moment";
    const outcome = await port.request(APP_SERVER_CLIENT.turn_interrupt, turnInterruptParams(threadId, t.turnId));
    return outcome.kind === "result" ? undefined : `turn/interrupt failed: ${outcomeText(outcome)}`;
  },
};
