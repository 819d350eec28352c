/** Prompt turns: the prompt, its response (stop reason, usage, error) and cancellation. */
import type { Error as AcpError } from "@agentclientprotocol/sdk";
import type { Frame } from "../../protocol/frame";
import { isObject, num, obj, str } from "../../protocol/json";
import { turnUsageOf } from "../turn-usage";
import { compact, get, isBlock, type Draft, type Obj } from "./draft";
import { ownSession, ownTurn, track } from "./items";
import { SeqList } from "./seq-list";
import {
  NO_SESSION,
  type MessageItem,
  type PendingRequest,
  type Turn,
  type TurnUsageView,
  type ViewItem,
} from "./types";

export function onPrompt(d: Draft, f: Frame, p: Obj): void {
  const sessionId = str(p.sessionId) ?? NO_SESSION;
  const s = ownSession(d, sessionId, f.seq);
  // Not fresh: shared by turn.prompt and the user item, so copied before any write.
  const prompt = Array.isArray(p.prompt) ? p.prompt.filter(isBlock) : [];
  const user: MessageItem = d.fresh({ type: "user_message", blocks: prompt, seqs: SeqList.of(f.seq) });
  s.turns = d.own(s.turns);
  s.turns.push(
    d.fresh<Turn>({
      sessionId,
      requestId: f.id ?? null,
      seq: f.seq,
      ts: f.ts,
      prompt,
      items: d.fresh<ViewItem[]>([user]),
      ended: false,
      agentMessageChunks: 0,
    }),
  );
  track(d, f, { sessionId, turn: s.turns.length - 1 });
}

export function onPromptResponse(d: Draft, f: Frame, pend: PendingRequest, m: Obj): void {
  if (pend.sessionId === undefined || pend.turn === undefined) return;
  const s = ownSession(d, pend.sessionId, f.seq);
  if (!s.turns[pend.turn]) return;
  const t = ownTurn(d, s, pend.turn);
  // v2: the response only acknowledges the prompt; `state_update` idle ends the turn (an error still ends it).
  if (t.endedBy === "state" || ((d.root.protocolVersion ?? 1) >= 2 && !("error" in m))) {
    t.responseSeq = f.seq;
    return;
  }
  t.ended = true;
  t.endedBy = "response";
  t.endSeq = f.seq;
  t.endTs = f.ts;
  t.durationMs = f.ts - t.ts;
  if ("error" in m) {
    t.error = (isObject(m.error) ? m.error : { code: -32603, message: String(m.error) }) as AcpError;
    t.emptyResponse = false;
    return;
  }
  const r = obj(m.result);
  t.stopReason = str(r.stopReason) ?? null;
  if (isObject(r._meta)) t.meta = r._meta;
  const usage = turnUsage(r);
  if (usage) t.usage = usage;
  t.emptyResponse = t.agentMessageChunks === 0 && t.stopReason === null;
}

export function turnUsage(r: Obj): TurnUsageView | undefined {
  const base = turnUsageOf(r);
  if (!base) return undefined;
  if (base.source !== "_meta.quota") return { ...base, raw: base.source === "usage" ? r.usage : obj(r._meta).usage };
  const q = obj(obj(r._meta).quota);
  return compact<TurnUsageView>({
    ...base,
    models: Array.isArray(q.model_usage)
      ? q.model_usage.filter(isObject).map((mu) =>
          compact({
            model: str(mu.model) ?? "",
            inputTokens: num(obj(mu.token_count).input_tokens),
            outputTokens: num(obj(mu.token_count).output_tokens),
          }),
        )
      : undefined,
    raw: q,
  });
}

export function onCancel(d: Draft, f: Frame, p: Obj): void {
  const sessionId = str(p.sessionId);
  const s0 = sessionId === undefined ? undefined : get(d.root.sessions, sessionId);
  const i = s0 ? s0.turns.length - 1 : -1;
  if (!s0 || sessionId === undefined || i < 0 || s0.turns[i]!.ended) return;
  const t = ownTurn(d, ownSession(d, sessionId, f.seq), i);
  t.cancelRequested = true;
  t.cancelSeq ??= f.seq;
}
