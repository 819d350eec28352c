/**
 * The turns a waterfall folds, and the bookkeeping every protocol's turn reader shares: turns
 * started by their prompt request, the running turn per conversation, the agent's requests
 * awaiting their answer, tool calls by id. What a frame means (which request starts a turn, which
 * notification ends it, which request waits for the user) is the reader's, one per protocol
 * (lib/folds/waterfall.ts picks it by the protocol's descriptor).
 */
import { idKey, type Frame, type JsonRpcId } from "../protocol/frame";
import { SeqList } from "./session-view";
import { turnUsageOf, type TurnUsage } from "./turn-usage";
import { isObject, str } from "../protocol/json";

export type StreamKind = "thought" | "message";

export type Obj = Record<string, unknown>;

interface Timed {
  /** ms since the epoch (frame ts). */
  start: number;
  /** Absent while still running. */
  end?: number;
  seqs: SeqList;
}

export interface StreamBand extends Timed {
  kind: StreamKind;
  chunks: number;
}

export interface ClientRequestItem extends Timed {
  /** The agent's request method: fs/read_text_file, terminal/create, session/request_permission... */
  method: string;
  /** It waits for the user (a permission, an approval, a question), not for the client's own work. */
  waitsForUser?: boolean;
  /** The answer was an error. */
  error?: boolean;
  /** For session/request_permission: the option the user picked, or "cancelled"; for an app-server approval, the decision. */
  outcome?: string;
}

export interface ToolItem extends Timed {
  toolCallId: string;
  title?: string;
  status?: string;
  updates: number;
  /** The permission requests for this call (time waiting for the user). */
  permissions: ClientRequestItem[];
}

export interface WaterfallTurn {
  /** The conversation: ACP's session, the app-server's thread. */
  sessionId: string;
  /** An app-server turn's id, once the server named it. */
  turnId?: string;
  /** Position among all prompt turns seen, from 0. */
  index: number;
  requestId: JsonRpcId;
  promptSeq: number;
  start: number;
  /** The first agent output (chunk, tool call or permission request). */
  firstOutput?: { ts: number; seq: number };
  streams: StreamBand[];
  tools: ToolItem[];
  /** Every agent-to-client request during the turn, permissions included. */
  requests: ClientRequestItem[];
  /** stopReason: ACP's, or an app-server turn's final status ("completed", "interrupted", "failed"). */
  end?: { ts: number; seq: number; stopReason?: string | null; error?: string };
  usage?: TurnUsage;
  /** Frames folded into this turn. */
  frames: number;
}

/** One protocol's reading of its frames into turns (over the shared TurnLog). */
export interface TurnReader {
  /** Folds in one frame (a JSON-RPC message, `params` an object or {}); frames it does not know it ignores. */
  add(f: Frame, m: Obj, params: Obj): void;
  /** Forgets what it keeps for an ended turn. */
  release(t: WaterfallTurn): void;
}

/** Makes a protocol's reader over a builder's log (each builder its own reader state). */
export type TurnReaderOf = (log: TurnLog) => TurnReader;

/** The turns as folded so far, and the pairing every reader needs. */
export class TurnLog {
  readonly turns: WaterfallTurn[] = [];
  /** The running turn per conversation id. */
  readonly #running = new Map<string, WaterfallTurn>();
  /** Turn-starting requests awaiting their response. */
  readonly #prompts = new Map<string, WaterfallTurn>();
  /** Agent-to-client requests awaiting their answer. */
  readonly #asked = new Map<string, { turn?: WaterfallTurn; item: ClientRequestItem }>();
  /** Tool calls by id, per turn. */
  readonly #toolIds = new Map<WaterfallTurn, Map<string, ToolItem>>();
  /** Turns started so far, released ones included (each turn's index). */
  #started = 0;

  turnOf(sessionId: string | undefined): WaterfallTurn | undefined {
    if (sessionId !== undefined) return this.#running.get(sessionId);
    // No conversation id (off-spec): the newest running turn.
    for (let i = this.turns.length - 1; i >= 0; i--) if (!this.turns[i]!.end) return this.turns[i];
    return undefined;
  }

  touch(t: WaterfallTurn, f: Frame): void {
    t.frames++;
    t.firstOutput ??= { ts: f.ts, seq: f.seq };
  }

  /** A turn-starting request. */
  prompt(f: Frame, sessionId: string): WaterfallTurn {
    const t: WaterfallTurn = {
      sessionId,
      index: this.#started++,
      requestId: f.id ?? null,
      promptSeq: f.seq,
      start: f.ts,
      streams: [],
      tools: [],
      requests: [],
      frames: 1,
    };
    this.turns.push(t);
    this.#running.set(sessionId, t);
    this.#prompts.set(idKey(f.id), t);
    return t;
  }

  /** The turn a response answers the starting request of (counted in), or undefined. */
  promptAnswered(f: Frame): WaterfallTurn | undefined {
    const key = idKey(f.id);
    const t = this.#prompts.get(key);
    if (!t) return undefined;
    this.#prompts.delete(key);
    t.frames++;
    return t;
  }

  finish(t: WaterfallTurn, f: Frame, why: { error: string } | { stopReason: string | null }, usageFrom: unknown): void {
    if (this.#running.get(t.sessionId) === t) this.#running.delete(t.sessionId);
    t.end = { ts: f.ts, seq: f.seq, ...why };
    const usage = turnUsageOf(usageFrom);
    if (usage) t.usage = usage;
    // Whatever is still open ends with the turn.
    for (const b of t.streams) b.end ??= f.ts;
    for (const tool of t.tools) tool.end ??= f.ts;
  }

  tool(t: WaterfallTurn, toolCallId: string, f: Frame): ToolItem {
    let ids = this.#toolIds.get(t);
    if (!ids) this.#toolIds.set(t, (ids = new Map<string, ToolItem>()));
    let tool = ids.get(toolCallId);
    if (tool) {
      tool.seqs = tool.seqs.append(f.seq);
      return tool;
    }
    tool = { toolCallId, start: f.ts, seqs: SeqList.of(f.seq), updates: 0, permissions: [] };
    t.tools.push(tool);
    ids.set(toolCallId, tool);
    return tool;
  }

  /** An agent-to-client request, in its turn if one runs; the item awaits its answer. */
  ask(f: Frame, method: string, t: WaterfallTurn | undefined, waitsForUser: boolean): ClientRequestItem {
    const item: ClientRequestItem = { method, start: f.ts, seqs: SeqList.of(f.seq) };
    if (waitsForUser) item.waitsForUser = true;
    if (t) {
      this.touch(t, f);
      t.requests.push(item);
    }
    this.#asked.set(idKey(f.id), { turn: t, item });
    return item;
  }

  /** The client's answer to an asked request: its item (ended), or undefined. */
  answer(f: Frame, m: Obj): { item: ClientRequestItem; result?: Obj } | undefined {
    const key = idKey(f.id);
    const asked = this.#asked.get(key);
    if (!asked) return undefined;
    this.#asked.delete(key);
    const { item, turn } = asked;
    item.end = f.ts;
    item.seqs = item.seqs.append(f.seq);
    if ("error" in m) item.error = true;
    if (turn) turn.frames++;
    return { item, result: isObject(m.result) ? m.result : undefined };
  }

  release(t: WaterfallTurn): boolean {
    if (!t.end) return false;
    const i = this.turns.lastIndexOf(t);
    if (i >= 0) this.turns.splice(i, 1);
    this.#toolIds.delete(t);
    return true;
  }
}

/** A response's error message ("error" when it names none), or undefined for a result. */
export const errorOf = (m: Obj): string | undefined =>
  isObject(m.error) ? (str(m.error.message) ?? "error") : "error" in m ? "error" : undefined;
