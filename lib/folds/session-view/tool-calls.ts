/** Tool calls: `tool_call`, `tool_call_update` and the permission requests that name them. */
import type { PermissionOption, RequestPermissionOutcome, Error as AcpError } from "@agentclientprotocol/sdk";
import type { Frame, JsonRpcId } from "../../protocol/frame";
import { isObject, obj, str } from "../../protocol/json";
import { CLIENT_METHODS } from "../../protocol/methods";
import { get, type Draft, type Obj } from "./draft";
import { addItem, addUnknown, firstOutput, lastIndex, ownItems, ownSession, target, track, type Target } from "./items";
import { SeqList } from "./seq-list";
import { NO_SESSION, type PendingRequest, type PermissionView, type ToolCallItem, type ViewItem } from "./types";

export const TOOL_FIELDS: Record<string, (v: unknown) => boolean> = {
  title: (v) => typeof v === "string",
  name: (v) => typeof v === "string",
  kind: (v) => typeof v === "string",
  status: (v) => typeof v === "string",
  content: Array.isArray,
  locations: Array.isArray,
  rawInput: (v) => v !== undefined,
  rawOutput: (v) => v !== undefined,
  _meta: isObject,
};

/** Merges a ToolCall or ToolCallUpdate (fields present override) into the item with its id, creating it if new. */
export function mergeToolCall(d: Draft, tg: Target, seq: number, id: string, u: Obj): ToolCallItem {
  const i = lastIndex(tg.items, (it) => it.type === "tool_call" && it.toolCallId === id);
  let it: ToolCallItem;
  if (i < 0) {
    it = addItem<ToolCallItem>(d, tg, { type: "tool_call", toolCallId: id, seqs: SeqList.of(seq) });
  } else {
    it = d.own(tg.items[i] as ToolCallItem);
    tg.items[i] = it;
    it.seqs = it.seqs.append(seq);
  }
  const w = it as unknown as Obj;
  // v2 patch semantics: null clears a field (v1 agents send null for "no change").
  const v2 = (d.root.protocolVersion ?? 1) >= 2;
  for (const [k, ok] of Object.entries(TOOL_FIELDS)) {
    if (u[k] === null && v2) delete w[k];
    else if (ok(u[k])) w[k] = u[k];
  }
  return it;
}

/**
 * v2 names the tool call in the permission's `subject`: a tool_call subject carries it (applied as
 * a tool_call_update, the schema says), a command subject may name one by id.
 */
function subjectToolCall(subject: unknown): unknown {
  if (!isObject(subject)) return undefined;
  if (subject.type === "tool_call") return subject.toolCall;
  return subject.type === "command" && typeof subject.toolCallId === "string"
    ? { toolCallId: subject.toolCallId }
    : undefined;
}

export function onPermissionRequest(d: Draft, f: Frame, id: JsonRpcId, p: Obj): void {
  const sessionId = str(p.sessionId) ?? NO_SESSION;
  const s = ownSession(d, sessionId, f.seq);
  const tg = target(d, s);
  const tc = p.toolCall ?? subjectToolCall(p.subject);
  if (!isObject(tc) || typeof tc.toolCallId !== "string") {
    addUnknown(d, s, tg, f.seq, CLIENT_METHODS.session_request_permission, p, "toolCall has no toolCallId");
    return;
  }
  // Gemini sends the tool call only here, with no `tool_call` update before it: this may create the item.
  const it = mergeToolCall(d, tg, f.seq, tc.toolCallId, tc);
  it.permission = {
    requestSeq: f.seq,
    requestId: id,
    options: Array.isArray(p.options) ? (p.options as PermissionOption[]) : [],
  };
  firstOutput(tg, f);
  track(d, f, { sessionId });
}

export function onPermissionResponse(d: Draft, f: Frame, pend: PendingRequest, m: Obj): void {
  const s0 = pend.sessionId === undefined ? undefined : get(d.root.sessions, pend.sessionId);
  const params = obj(pend.params);
  const toolCallId = obj(params.toolCall ?? subjectToolCall(params.subject)).toolCallId;
  if (!s0 || pend.sessionId === undefined) return;
  const isIt = (it: ViewItem) => it.type === "tool_call" && it.toolCallId === toolCallId;
  // Usually in the last turn; search back further only if the answer came late.
  for (let ti = s0.turns.length - 1; ti >= -1; ti--) {
    const list = ti < 0 ? s0.preamble : s0.turns[ti]!.items;
    const i = lastIndex(list, isIt);
    if (i < 0) continue;
    const items = ownItems(d, ownSession(d, pend.sessionId, f.seq), ti);
    const it = d.own(items[i] as ToolCallItem);
    items[i] = it;
    it.seqs = it.seqs.append(f.seq);
    const perm: PermissionView = {
      ...(it.permission ?? { requestSeq: pend.seq, requestId: f.id ?? null, options: [] }),
    };
    perm.responseSeq = f.seq;
    if ("error" in m) perm.error = m.error as AcpError;
    else if (isObject(obj(m.result).outcome)) perm.outcome = obj(m.result).outcome as RequestPermissionOutcome;
    it.permission = perm;
    return;
  }
}
