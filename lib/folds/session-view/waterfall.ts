/**
 * ACP's turns for the waterfall (lib/folds/waterfall.ts): `session/prompt` to its response (from
 * version 2 on, to `state_update` idle: the response only acknowledges the prompt), message and
 * thought chunks as streams, tool calls by id with their `session/request_permission` waits.
 */
import type { Frame } from "../../protocol/frame";
import { isObject, str } from "../../protocol/json";
import { AGENT_METHODS, CLIENT_METHODS } from "../../protocol/methods";
import { SeqList } from "./seq-list";
import {
  errorOf,
  type Obj,
  type StreamBand,
  type StreamKind,
  type TurnLog,
  type TurnReader,
  type WaterfallTurn,
} from "../waterfall-turns";

const STREAM_OF: Record<string, StreamKind> = {
  agent_message_chunk: "message",
  agent_thought_chunk: "thought",
  // v2 upserts by messageId
  agent_message: "message",
  agent_thought: "thought",
};

export function acpTurns(log: TurnLog): TurnReader {
  /** The stream band chunks currently append to, per turn (any other update closes it). */
  const openBand = new Map<WaterfallTurn, { band: StreamBand; messageId?: string }>();
  /** From the agent's initialize response: from 2 on, a turn ends on `state_update` idle, not on the prompt response. */
  let version = 1;

  const finish = (
    t: WaterfallTurn,
    f: Frame,
    why: { error: string } | { stopReason: string | null },
    usage: unknown,
  ) => {
    openBand.delete(t);
    log.finish(t, f, why, usage);
  };

  function update(f: Frame, p: Obj): void {
    const t = log.turnOf(str(p.sessionId));
    const u = p.update;
    if (!t || !isObject(u)) return;
    const variant = str(u.sessionUpdate);
    const kind = variant !== undefined ? STREAM_OF[variant] : undefined;
    if (kind) {
      log.touch(t, f);
      const messageId = str(u.messageId);
      const open = openBand.get(t);
      if (
        open &&
        open.band.kind === kind &&
        (messageId === undefined || open.messageId === undefined || messageId === open.messageId)
      ) {
        open.band.end = f.ts;
        open.band.chunks++;
        open.band.seqs = open.band.seqs.append(f.seq);
        open.messageId ??= messageId;
        return;
      }
      const band: StreamBand = { kind, start: f.ts, end: f.ts, seqs: SeqList.of(f.seq), chunks: 1 };
      t.streams.push(band);
      openBand.set(t, { band, messageId });
      return;
    }
    // The prompt echoed back (session/load, a v2 user message): no agent time.
    if (variant === "user_message_chunk" || variant === "user_message") return;
    if (variant === "state_update" && u.state === "idle") {
      t.frames++;
      finish(t, f, { stopReason: str(u.stopReason) ?? null }, { usage: u.usage });
      return;
    }
    openBand.delete(t);
    if (
      (variant === "tool_call" || variant === "tool_call_update" || variant === "tool_call_content_chunk") &&
      typeof u.toolCallId === "string"
    ) {
      log.touch(t, f);
      const tool = log.tool(t, u.toolCallId, f);
      tool.updates++;
      if (typeof u.title === "string") tool.title = u.title;
      if (typeof u.status === "string") tool.status = u.status;
      if (variant !== "tool_call_content_chunk")
        tool.end = u.status === "completed" || u.status === "failed" ? f.ts : undefined;
    } else {
      t.frames++;
    }
  }

  function ask(f: Frame, method: string, p: Obj): void {
    const t = log.turnOf(str(p.sessionId));
    const permission = method === CLIENT_METHODS.session_request_permission;
    const item = log.ask(f, method, t, permission);
    if (!t) return;
    openBand.delete(t);
    const tc = p.toolCall;
    if (permission && isObject(tc) && typeof tc.toolCallId === "string") {
      const tool = log.tool(t, tc.toolCallId, f);
      if (typeof tc.title === "string") tool.title ??= tc.title;
      tool.permissions.push(item);
    }
  }

  function response(f: Frame, m: Obj): void {
    // The sequencer names a response's method; a recording paired on load does not: know it by its shape too.
    const r = m.result;
    if (
      isObject(r) &&
      (f.method === AGENT_METHODS.initialize ||
        (f.method === undefined && typeof r.protocolVersion === "number" && isObject(r.agentCapabilities)))
    ) {
      if (typeof r.protocolVersion === "number") version = r.protocolVersion;
      return;
    }
    const t = log.promptAnswered(f);
    if (!t) return;
    const error = errorOf(m);
    // v2: the response acknowledges the prompt; the turn runs on until `state_update` idle.
    if (t.end || (version >= 2 && error === undefined)) return;
    const result = isObject(r) ? r : undefined;
    finish(t, f, error !== undefined ? { error } : { stopReason: str(result?.stopReason) ?? null }, result);
  }

  return {
    add(f, m, params) {
      if (f.kind === "request" && f.dir === "to-agent" && f.method === AGENT_METHODS.session_prompt)
        return void log.prompt(f, str(params.sessionId) ?? "");
      if (f.kind === "notification" && f.dir === "from-agent" && f.method === CLIENT_METHODS.session_update)
        return update(f, params);
      if (f.kind === "request" && f.dir === "from-agent" && f.method) return ask(f, f.method, params);
      if (f.kind === "response" && f.dir === "from-agent") return response(f, m);
      if (f.kind === "response" && f.dir === "to-agent") {
        const answered = log.answer(f, m);
        const outcome = isObject(answered?.result?.outcome) ? answered.result.outcome : undefined;
        if (answered && outcome) answered.item.outcome = str(outcome.optionId) ?? str(outcome.outcome);
      }
    },
    release(t) {
      openBand.delete(t);
    },
  };
}
