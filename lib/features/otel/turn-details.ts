/**
 * What a span needs beyond the waterfall's timing (lib/folds/waterfall.ts): each tool call's name and
 * kind, the usage an agent reports on updates, and, only when message contents are asked for, the
 * prompt, the answer and the tools' arguments and results. Read off the same frames, kept per turn
 * and bounded (texts cut at MAX_KEPT), so a turn of 10,000 chunks holds one capped string.
 */
import type { Frame } from "../../protocol/frame";
import { isObject, str } from "../../protocol/json";
import { AGENT_METHODS, CLIENT_METHODS } from "../../protocol/methods";
import { APP_SERVER_CLIENT, APP_SERVER_NOTIFICATIONS as ASN } from "../../protocol/app-server-methods";
import { APP_SERVER_ITEM_KIND } from "../../folds/codex-app-server/waterfall";
import { updateUsageOf, type TurnUsage } from "../../folds/turn-usage";

/** Longest string a span carries (contents are opt-in, and backends cap attributes too). */
export const MAX_TEXT = 16 * 1024;
/** Kept here before the span cuts at MAX_TEXT after redacting: twice as much, so no cut lands in what is sent. */
const MAX_KEPT = 2 * MAX_TEXT;

export interface ToolDetails {
  name?: string;
  kind?: string;
  input?: string;
  output?: string;
}

export interface TurnDetails {
  tools: Map<string, ToolDetails>;
  /** The last usage an update carried (`_meta.usage`), for agents whose prompt result has none. */
  usage?: TurnUsage;
  /** From the last `usage_update`: tokens in context and the window. */
  context?: { used?: number; size?: number };
  /** Only with contents on. */
  prompt?: string;
  answer?: string;
}

type Obj = Record<string, unknown>;

export const newTurnDetails = (): TurnDetails => ({ tools: new Map() });

const cap = (text: string): string => (text.length > MAX_KEPT ? text.slice(0, MAX_KEPT) : text);

function append(prev: string | undefined, more: string): string {
  if (prev !== undefined && prev.length >= MAX_KEPT) return prev;
  return cap((prev ?? "") + more);
}

const asText = (v: unknown): string | undefined =>
  v === undefined ? undefined : cap(typeof v === "string" ? v : (JSON.stringify(v) ?? ""));

/** The text blocks of an ACP prompt or an app-server turn's input. */
function promptText(blocks: unknown): string | undefined {
  if (!Array.isArray(blocks)) return undefined;
  const texts = blocks.map((b) => (isObject(b) && b.type === "text" ? str(b.text) : undefined)).filter(Boolean);
  return texts.length ? cap(texts.join("\n")) : undefined;
}

function tool(d: TurnDetails, id: string): ToolDetails {
  let t = d.tools.get(id);
  if (!t) d.tools.set(id, (t = {}));
  return t;
}

/** An ACP ToolCall or ToolCallUpdate (or a permission request's toolCall). */
function acpTool(d: TurnDetails, u: Obj, content: boolean): void {
  if (typeof u.toolCallId !== "string") return;
  const t = tool(d, u.toolCallId);
  // ACP has no tool name field; some agents send `name` anyway, and `_meta` may carry one.
  const meta = isObject(u._meta) ? u._meta : {};
  t.name = str(u.name) ?? str(meta.toolName) ?? str(meta.name) ?? t.name;
  t.kind = str(u.kind) ?? t.kind;
  if (content) {
    if (u.rawInput !== undefined) t.input = asText(u.rawInput);
    if (u.rawOutput !== undefined) t.output = asText(u.rawOutput);
  }
}

/** An app-server item (item/started, item/completed). */
function appServerItem(d: TurnDetails, item: Obj, content: boolean): void {
  const id = str(item.id);
  const type = str(item.type);
  if (!id || !type) return;
  if (APP_SERVER_ITEM_KIND[type] === "tool") {
    const t = tool(d, id);
    t.kind = type;
    t.name = str(item.tool) ?? type;
    if (content) {
      const input = item.command ?? item.arguments ?? item.changes ?? item.query;
      if (input !== undefined) t.input = asText(input);
      const output = item.aggregatedOutput ?? item.result ?? item.error;
      if (output !== undefined && output !== null) t.output = asText(output);
    }
  } else if (content && type === "agentMessage" && typeof item.text === "string") {
    d.answer = append(d.answer === undefined ? undefined : `${d.answer}\n`, item.text);
  }
}

/**
 * Folds one frame of the turn `d` belongs to. `content`: keep texts (prompt, answer, tool input and output).
 */
export function addTurnDetails(d: TurnDetails, f: Frame, content: boolean): void {
  const m = f.message;
  if (!isObject(m)) return;
  const p = isObject(m.params) ? m.params : {};
  if (f.kind === "request" && f.dir === "to-agent") {
    if (!content) return;
    if (f.method === AGENT_METHODS.session_prompt) d.prompt = promptText(p.prompt);
    else if (f.method === APP_SERVER_CLIENT.turn_start) d.prompt = promptText(p.input);
    return;
  }
  if (f.dir !== "from-agent") return;
  if (f.kind === "request" && f.method === CLIENT_METHODS.session_request_permission && isObject(p.toolCall)) {
    acpTool(d, p.toolCall, content);
    return;
  }
  if (f.kind !== "notification") return;
  if (f.method === CLIENT_METHODS.session_update && isObject(p.update)) {
    const u = p.update;
    const variant = str(u.sessionUpdate);
    if (variant === "tool_call" || variant === "tool_call_update") acpTool(d, u, content);
    else if (content && (variant === "agent_message_chunk" || variant === "agent_message")) {
      const c = u.content;
      if (isObject(c) && c.type === "text" && typeof c.text === "string") d.answer = append(d.answer, c.text);
    }
    const usage = updateUsageOf(u);
    if (usage?.source === "usage_update") d.context = { used: usage.contextUsed, size: usage.contextSize };
    else if (usage) d.usage = usage;
    return;
  }
  if ((f.method === ASN.item_started || f.method === ASN.item_completed) && isObject(p.item))
    appServerItem(d, p.item, content);
}
