/**
 * One v2 prompt turn, driven as the kit drives it (acp-tck v2 `_helpers.run_prompt`): the
 * session/prompt response is only a receipt ({messageId}); the turn ends at a state_update idle
 * for the session that carries a stopReason or follows a running, or at an error answering the
 * prompt. A trigger (cancel, close) fires at the first running, or after `triggerWaitMs`.
 */
import { isObject } from "../../protocol/json";
import { messagesOf, selectFirst, updateOf, type Msg, type V2Connection } from "./connection";

export interface Turn {
  promptId: string;
  /** The session/prompt response (a receipt, or an error). */
  response?: Msg;
  /** The receipt's messageId. */
  messageId?: string;
  /** Every session/update's update seen during the turn, with its session, in order. */
  updates: Array<{ sessionId: unknown; update: Msg; at: number }>;
  /** The agent's requests during the turn. */
  requests: Msg[];
  /** Responses seen during the turn that answer none of the probe's requests but the prompt. */
  strayResponses: Msg[];
  running: boolean;
  /** The update that ended the turn, and when. */
  idle?: { update: Msg; at: number };
  stopReason?: unknown;
  /** How the turn ended. */
  end: "idle" | "error" | "timeout" | "gone";
  /** When the trigger was sent (performance.now()); undefined: it never was. */
  triggeredAt?: number;
  /** The trigger's request id, when it is a request (session/close). */
  triggerId?: string;
}

export interface TurnOptions {
  timeoutMs: number;
  /** Sent once, at the first running (or after triggerWaitMs); a request's id if it sends one. */
  trigger?: () => string | undefined;
  triggerWaitMs?: number;
  /** The answer to a session/request_permission (default: the first option selected; cancelled once triggered). */
  permission?: (params: Msg) => unknown;
}

const isState = (u: Msg, state: string) => u.sessionUpdate === "state_update" && u.state === state;

export async function runTurn(
  conn: V2Connection,
  sessionId: string,
  prompt: unknown[],
  options: TurnOptions,
): Promise<Turn> {
  const promptId = conn.request("session/prompt", { sessionId, prompt });
  const started = performance.now();
  const deadline = started + options.timeoutMs;
  const turn: Turn = { promptId, updates: [], requests: [], strayResponses: [], running: false, end: "timeout" };
  const fire = () => {
    if (!options.trigger || turn.triggeredAt !== undefined) return;
    turn.triggeredAt = performance.now();
    turn.triggerId = options.trigger();
  };
  const permission = (params: Msg) =>
    turn.triggeredAt !== undefined
      ? { outcome: { outcome: "cancelled" } }
      : (options.permission ?? selectFirst)(params);

  for (;;) {
    const now = performance.now();
    const waitForTrigger =
      options.trigger && turn.triggeredAt === undefined ? started + (options.triggerWaitMs ?? 500) - now : Infinity;
    if (waitForTrigger <= 0) fire();
    const e = await conn.next(Math.min(deadline - now, Math.max(waitForTrigger, 0)));
    if (!e) {
      if (conn.closed) return { ...turn, end: "gone" };
      if (performance.now() >= deadline) return turn;
      continue;
    }
    for (const m of messagesOf(e)) {
      if (m.id === promptId && !("method" in m)) {
        turn.response = m;
        if (isObject(m.result) && typeof m.result.messageId === "string") turn.messageId = m.result.messageId;
        if ("error" in m) return { ...turn, end: "error" };
        continue;
      }
      if (typeof m.method === "string" && "id" in m) {
        turn.requests.push(m);
        conn.answer(m, permission);
        continue;
      }
      if (!("method" in m)) {
        if (m.id !== turn.triggerId) turn.strayResponses.push(m);
        continue;
      }
      const u = updateOf(m);
      if (!u) continue;
      turn.updates.push({ ...u, at: e.at });
      if (u.sessionId !== sessionId) continue;
      if (isState(u.update, "running") && !turn.running) {
        turn.running = true;
        fire();
      } else if (isState(u.update, "idle") && (u.update.stopReason != null || turn.running)) {
        return { ...turn, idle: { update: u.update, at: e.at }, stopReason: u.update.stopReason, end: "idle" };
      }
    }
  }
}

/** The text prompt the probe sends. */
export const textPrompt = (text: string) => [{ type: "text", text }];
