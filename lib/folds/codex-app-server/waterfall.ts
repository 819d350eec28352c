/**
 * Codex app-server turns for the waterfall (lib/folds/waterfall.ts, docs/app-server.md):
 * `turn/start` to `turn/completed` (its status as the stop reason; `turn/start` answers at once),
 * agent message and reasoning items as streams, command executions, file changes and other tool
 * items as tool calls (item/started to item/completed) with their approvals, the token usage of
 * the turn's model calls summed.
 */
import type { Frame } from "../../protocol/frame";
import { isObject, str } from "../../protocol/json";
import {
  APP_SERVER_CLIENT,
  APP_SERVER_NOTIFICATIONS as ASN,
  APP_SERVER_REQUESTS,
  turnIdOf,
} from "../../protocol/app-server-methods";
import { SeqList } from "../session-view/seq-list";
import { turnUsageOf, type TurnUsage } from "../turn-usage";
import { grantOutcome } from "./items";
import {
  errorOf,
  type Obj,
  type StreamBand,
  type StreamKind,
  type TurnLog,
  type TurnReader,
  type WaterfallTurn,
} from "../waterfall-turns";

/**
 * What the folds make of an app-server item, by its type: a stream (agent messages, plans,
 * reasoning) or a tool call. Other items (the user's message, context compaction...) are neither.
 */
export const APP_SERVER_ITEM_KIND: Readonly<Record<string, StreamKind | "tool">> = {
  agentMessage: "message",
  plan: "message",
  reasoning: "thought",
  commandExecution: "tool",
  fileChange: "tool",
  mcpToolCall: "tool",
  dynamicToolCall: "tool",
  collabAgentToolCall: "tool",
  webSearch: "tool",
  imageView: "tool",
  imageGeneration: "tool",
};
const DELTA_STREAM: Record<string, StreamKind> = {
  [ASN.agent_message_delta]: "message",
  [ASN.reasoning_summary_text_delta]: "thought",
  [ASN.reasoning_text_delta]: "thought",
};
const OUTPUT_DELTAS = new Set<string>([ASN.command_output_delta, ASN.file_change_output_delta]);

/** The requests that wait for the user: approvals and the model's questions. */
const USER_REQUESTS = new Set<string>(Object.values(APP_SERVER_REQUESTS));

/** What an app-server tool item is called: its command, its files, its (MCP) tool, else its type. */
export function appServerItemTitle(item: Obj): string {
  if (typeof item.command === "string") return item.command;
  if (Array.isArray(item.changes)) {
    const paths = item.changes.map((c) => (isObject(c) ? str(c.path) : undefined)).filter(Boolean);
    return `${str(item.type) ?? "fileChange"} ${paths.join(", ")}`;
  }
  if (typeof item.tool === "string") return [str(item.server), item.tool].filter(Boolean).join(".");
  return str(item.type) ?? "item";
}

/** An app-server turn's usage: the sum of its model calls' (each `last` of thread/tokenUsage/updated). */
function addUsage(prev: TurnUsage | undefined, last: unknown): TurnUsage | undefined {
  const u = turnUsageOf({ usage: last });
  if (!u) return prev;
  const sum = (a: number | undefined, b: number | undefined) => (a === undefined ? b : (b ?? 0) + a);
  return {
    source: "thread/tokenUsage/updated",
    inputTokens: sum(prev?.inputTokens, u.inputTokens),
    outputTokens: sum(prev?.outputTokens, u.outputTokens),
    totalTokens: sum(prev?.totalTokens, u.totalTokens),
  };
}

export function appServerTurns(log: TurnLog): TurnReader {
  /** Stream items' bands by item id, per turn. */
  const itemBands = new Map<WaterfallTurn, Map<string, StreamBand>>();

  /** A notification about a thread: the turn's lifecycle, its items, their deltas, usage. */
  function threadEvent(f: Frame, method: string, p: Obj): void {
    const t = log.turnOf(str(p.threadId));
    if (!t) return;
    const turn = isObject(p.turn) ? p.turn : undefined;
    if (method === ASN.turn_started) {
      t.frames++;
      t.turnId ??= turnIdOf(p);
      return;
    }
    if (method === ASN.turn_completed) {
      const id = turnIdOf(p);
      if (t.turnId !== undefined && id !== undefined && id !== t.turnId) return;
      t.frames++;
      const error = isObject(turn?.error) ? str(turn.error.message) : undefined;
      // Its usage came before, in thread/tokenUsage/updated.
      log.finish(t, f, error !== undefined ? { error } : { stopReason: str(turn?.status) ?? null }, undefined);
      return;
    }
    if (method === ASN.thread_token_usage_updated) {
      t.frames++;
      t.usage = addUsage(t.usage, isObject(p.tokenUsage) ? p.tokenUsage.last : undefined);
      return;
    }
    const item = isObject(p.item) ? p.item : undefined;
    const itemId = str(item?.id) ?? str(p.itemId);
    const isItemEvent = method === ASN.item_started || method === ASN.item_completed;
    const kind = isItemEvent ? APP_SERVER_ITEM_KIND[str(item?.type) ?? ""] : DELTA_STREAM[method];
    const stream = kind === "tool" ? undefined : kind;
    if (itemId === undefined || (!kind && !OUTPUT_DELTAS.has(method))) {
      t.frames++;
      return;
    }
    log.touch(t, f);
    if (stream) {
      let bands = itemBands.get(t);
      if (!bands) itemBands.set(t, (bands = new Map<string, StreamBand>()));
      const band = bands.get(itemId);
      if (!band) {
        const chunks = isItemEvent ? 0 : 1;
        const fresh: StreamBand = { kind: stream, start: f.ts, end: f.ts, seqs: SeqList.of(f.seq), chunks };
        t.streams.push(fresh);
        bands.set(itemId, fresh);
        return;
      }
      band.end = f.ts;
      band.seqs = band.seqs.append(f.seq);
      if (!isItemEvent) band.chunks++;
      return;
    }
    const tool = log.tool(t, itemId, f);
    tool.updates++;
    if (item) {
      tool.title ??= appServerItemTitle(item);
      if (typeof item.status === "string") tool.status = item.status;
    }
    if (method === ASN.item_completed) tool.end = f.ts;
  }

  function ask(f: Frame, method: string, p: Obj): void {
    const t = log.turnOf(str(p.threadId));
    const waits = USER_REQUESTS.has(method);
    const item = log.ask(f, method, t, waits);
    if (t && waits && typeof p.itemId === "string") log.tool(t, p.itemId, f).permissions.push(item);
  }

  function answer(f: Frame, m: Obj): void {
    const answered = log.answer(f, m);
    const r = answered?.result;
    if (!answered || !r) return;
    // An approval's decision: "accept", "decline", "cancel", or an object keyed by its kind.
    const decision = r.decision;
    if (decision !== undefined)
      answered.item.outcome = str(decision) ?? (isObject(decision) ? Object.keys(decision)[0] : undefined);
    // A permissions request's answer is the permissions granted, and for how long.
    else if (isObject(r.permissions)) answered.item.outcome = grantOutcome(r);
  }

  return {
    add(f, m, params) {
      if (f.kind === "request" && f.dir === "to-agent" && f.method === APP_SERVER_CLIENT.turn_start)
        return void log.prompt(f, str(params.threadId) ?? "");
      if (f.kind === "notification" && f.dir === "from-agent" && typeof params.threadId === "string")
        return threadEvent(f, f.method ?? "", params);
      if (f.kind === "request" && f.dir === "from-agent" && f.method) return ask(f, f.method, params);
      if (f.kind === "response" && f.dir === "from-agent") {
        const t = log.promptAnswered(f);
        if (!t) return;
        // turn/start answers with the turn at once; the turn runs on until turn/completed.
        const error = errorOf(m);
        if (error !== undefined && !t.end) log.finish(t, f, { error }, undefined);
        else t.turnId ??= turnIdOf(isObject(m.result) ? m.result : undefined);
        return;
      }
      if (f.kind === "response" && f.dir === "to-agent") answer(f, m);
    },
    release(t) {
      itemBands.delete(t);
    },
  };
}
