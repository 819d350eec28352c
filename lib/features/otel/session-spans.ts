/**
 * A recorded or live agent session as OpenTelemetry GenAI spans (docs/otel.md). One trace per
 * prompt turn: its root is an `invoke_agent` span, with an `execute_tool` child per tool call and a
 * child per agent-to-client request (a permission wait under the tool it asks about), each turn
 * linked to the one before it in the same session. The turns, tools and requests and their times
 * are the waterfall fold's (lib/folds/waterfall.ts, ACP and Codex app-server alike); this adds
 * names, ids and attributes.
 *
 * Streaming: frames go in one at a time and a span comes out once it has ended (a request when it
 * is answered, a turn with its tools when the turn ends). What is kept between frames is the open
 * turns' items, not the frames. Ids are derived from the transcript id and seqs (span-ids.ts), so
 * the same recording always gives the same spans, live or exported later.
 */
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_AGENT_VERSION,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  ATTR_SESSION_ID,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI,
  GEN_AI_PROVIDER_NAME_VALUE_OPENAI,
} from "@opentelemetry/semantic-conventions/incubating";
import { ATTR_ERROR_TYPE, ATTR_EXCEPTION_MESSAGE, ATTR_RPC_METHOD } from "@opentelemetry/semantic-conventions";
import type { Frame } from "../../protocol/frame";
import { isObject, str } from "../../protocol/json";
import { AGENT_METHODS } from "../../protocol/methods";
import { APP_SERVER_CLIENT } from "../../protocol/app-server-methods";
import { DEFAULT_PROTOCOL, descriptorOf, PROTOCOL_NAMES } from "../../protocol/protocols";
import {
  WaterfallBuilder,
  waitsForUser,
  type ClientRequestItem,
  type ToolItem,
  type WaterfallTurn,
} from "../../folds/waterfall";
import { frameLink } from "../library/deep-link";
import { spanIdOf, traceIdOf } from "./span-ids";
import { addTurnDetails, MAX_TEXT, newTurnDetails, type TurnDetails } from "./turn-details";
import {
  ATTR_FRAME_URL,
  ATTR_SEQ,
  ATTR_TRANSCRIPT_ID,
  type Attributes,
  type TraceSpan,
  type TraceSpanEvent,
} from "./trace-span";

export interface SessionSource {
  transcriptId: string;
  /** The profile the agent was started from (the transcript header's agent.profile). */
  profile?: string;
  /** The model chosen in the profile's options, when one was. */
  model?: string;
  /** The transcript's protocol (lib/protocol/protocols.ts), or absent for ACP. */
  protocol?: string;
}

export interface SessionSpanOptions {
  /** The playground's address, for each span's link to its frame (`/transcripts/ID#seq=N`). */
  linkBase: string;
  /** Message contents (prompt, answer, tool arguments and results): off unless asked for. */
  content?: boolean;
  /** Applied to every string attribute and event attribute before a span leaves (lib/features/library/redact.ts). */
  redact?: (text: string) => string;
  /** Mixed into every id: a different salt sends the recording again as new traces. */
  salt?: string;
}

/** Longest span name sent (the rest of a long tool name is in its attributes, cut at MAX_TEXT). */
const MAX_NAME = 200;

/** Providers known by the agent's name or profile (gen_ai.provider.name; left out when unknown). */
const PROVIDERS: Array<[RegExp, string]> = [
  [/gemini/i, GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI],
  [/claude|anthropic/i, GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC],
  [/codex|openai/i, GEN_AI_PROVIDER_NAME_VALUE_OPENAI],
];

interface OpenTurn {
  details: TurnDetails;
  /** Its requests not yet sent (sent when answered). */
  pending: Set<ClientRequestItem>;
  /** How many of the turn's requests were seen. */
  requestsSeen: number;
  /** Agent errors (lifecycle) while it ran. */
  errors: TraceSpanEvent[];
}

/** The name a protocol gives its agent when the agent gives none (a transcript's protocol is any string). */
const agentNameOf = (protocol: string | undefined): string | undefined => {
  const known = PROTOCOL_NAMES.find((p) => p === protocol);
  return known && descriptorOf(known).agentName;
};

export class SessionSpans {
  readonly #source: SessionSource;
  readonly #options: SessionSpanOptions;
  readonly #waterfall: WaterfallBuilder;
  readonly #open = new Map<WaterfallTurn, OpenTurn>();
  #turnsSeen = 0;
  /** The last turn's span per session, for the next turn's link. */
  readonly #previous = new Map<string, { traceId: string; spanId: string }>();
  #agent: { name?: string; version?: string } = {};
  #model?: string;
  #lastTs = 0;

  constructor(source: SessionSource, options: SessionSpanOptions) {
    this.#source = source;
    this.#options = options;
    this.#model = source.model;
    this.#waterfall = new WaterfallBuilder(PROTOCOL_NAMES.find((p) => p === source.protocol) ?? DEFAULT_PROTOCOL);
  }

  /** Folds one frame (in seq order); returns the spans that ended with it. */
  add(f: Frame): TraceSpan[] {
    if (f.seq <= this.#waterfall.lastSeq) return [];
    this.#lastTs = Math.max(this.#lastTs, f.ts);
    this.#learn(f);
    this.#waterfall.add(f);
    // New turns are the last ones, by index (ended turns are released from the fold).
    const turns = this.#waterfall.turns;
    let first = turns.length;
    while (first > 0 && turns[first - 1]!.index >= this.#turnsSeen) first--;
    for (const t of turns.slice(first)) {
      this.#open.set(t, { details: newTurnDetails(), pending: new Set(), requestsSeen: 0, errors: [] });
      this.#turnsSeen = t.index + 1;
    }
    const out: TraceSpan[] = [];
    const sessionId = this.#sessionOf(f);
    for (const [t, o] of this.#open) {
      if (sessionId === undefined || sessionId === t.sessionId) addTurnDetails(o.details, f, this.#content);
      while (o.requestsSeen < t.requests.length) o.pending.add(t.requests[o.requestsSeen++]!);
      if (f.dir === "to-agent" && f.kind === "response") {
        for (const r of o.pending) {
          if (r.end === undefined) continue;
          o.pending.delete(r);
          out.push(this.#requestSpan(t, r, r.end));
        }
      }
      if (t.end) out.push(...this.#close(t, o, t.end.ts));
    }
    return out;
  }

  /** An agent error or exit while turns run: an error event on them; an exit ends them. */
  lifecycle(e: { ts: number; event: string; message?: string; code?: number | null; signal?: string | null }) {
    this.#lastTs = Math.max(this.#lastTs, e.ts);
    if (e.event === "error") {
      for (const o of this.#open.values())
        o.errors.push({ name: "exception", time: e.ts, attributes: { [ATTR_EXCEPTION_MESSAGE]: e.message ?? "" } });
      return [];
    }
    if (e.event !== "exited" && e.event !== "capped") return [];
    const why =
      e.event === "capped"
        ? "the recording reached its size cap during the turn"
        : `the agent exited during the turn (${e.signal ? `signal ${e.signal}` : `code ${e.code ?? "?"}`})`;
    return this.#closeAll(e.ts, why);
  }

  /** The end of the recording or the session: turns still running end at the last frame's time. */
  finish(ts = this.#lastTs): TraceSpan[] {
    return this.#closeAll(ts, "the recording ends before the turn does");
  }

  get #content(): boolean {
    return this.#options.content === true;
  }

  #closeAll(ts: number, why: string): TraceSpan[] {
    const out: TraceSpan[] = [];
    for (const [t, o] of this.#open) {
      o.errors.push({ name: "exception", time: ts, attributes: { [ATTR_EXCEPTION_MESSAGE]: why } });
      out.push(...this.#close(t, o, ts));
    }
    return out;
  }

  /** The agent's name and version (initialize), the model (session/new, thread/start). */
  #learn(f: Frame): void {
    if (f.kind !== "response" || f.dir !== "from-agent" || !isObject(f.message)) return;
    const r = f.message.result;
    if (!isObject(r)) return;
    if (isObject(r.agentInfo)) {
      this.#agent = { name: str(r.agentInfo.name), version: str(r.agentInfo.version) };
      return;
    }
    const models = isObject(r.models) ? r.models : undefined;
    const model =
      str(models?.currentModelId) ?? (f.method === APP_SERVER_CLIENT.thread_start ? str(r.model) : undefined);
    if (model && (f.method === AGENT_METHODS.session_new || f.method === APP_SERVER_CLIENT.thread_start || models))
      this.#model = model;
  }

  #sessionOf(f: Frame): string | undefined {
    const p = isObject(f.message) && isObject(f.message.params) ? f.message.params : undefined;
    return str(p?.sessionId) ?? str(p?.threadId);
  }

  #key(...parts: Array<string | number>): string {
    return [this.#options.salt ?? "", this.#source.transcriptId, ...parts].join("\0");
  }

  #traceId(t: WaterfallTurn): string {
    return traceIdOf(this.#key("turn", t.promptSeq));
  }

  #turnSpanId(t: WaterfallTurn): string {
    return spanIdOf(this.#key("turn", t.promptSeq));
  }

  #toolSpanId(t: WaterfallTurn, toolCallId: string): string {
    return spanIdOf(this.#key("tool", t.promptSeq, toolCallId));
  }

  get #agentName(): string {
    return this.#agent.name ?? agentNameOf(this.#source.protocol) ?? this.#source.profile ?? "agent";
  }

  /** What every span carries: where its frames are. */
  #where(seq: number): Attributes {
    const id = this.#source.transcriptId;
    const url = frameLink(`${this.#options.linkBase.replace(/\/+$/, "")}/`, seq, id);
    return { [ATTR_TRANSCRIPT_ID]: id, [ATTR_SEQ]: seq, ...(url ? { [ATTR_FRAME_URL]: url } : {}) };
  }

  /**
   * Every string the span carries, redacted, then cut (an agent's title or tool name may be any
   * length): redaction first, so a cut never leaves part of a secret it would have matched.
   */
  #finalize(span: TraceSpan): TraceSpan {
    const redact = this.#options.redact ?? ((text: string) => text);
    const clean = (text: string, max = MAX_TEXT) => {
      const r = redact(text);
      return r.length > max ? `${r.slice(0, max)}…[truncated]` : r;
    };
    const cleanAll = (a: Attributes): Attributes => {
      const out: Attributes = {};
      for (const [k, v] of Object.entries(a))
        out[k] = typeof v === "string" ? clean(v) : Array.isArray(v) ? v.map((x) => clean(x)) : v;
      return out;
    };
    return {
      ...span,
      name: clean(span.name, MAX_NAME),
      attributes: cleanAll(span.attributes),
      events: span.events.map((e) => ({ ...e, attributes: cleanAll(e.attributes) })),
      status: span.status.message === undefined ? span.status : { ...span.status, message: clean(span.status.message) },
    };
  }

  #requestSpan(t: WaterfallTurn, r: ClientRequestItem, end: number, unanswered?: string): TraceSpan {
    const seq = r.seqs.first ?? t.promptSeq;
    const tool = t.tools.find((x) => x.permissions.includes(r));
    const user = waitsForUser(r) || r.method.startsWith("elicitation/");
    const attributes: Attributes = {
      ...this.#where(seq),
      [ATTR_RPC_METHOD]: r.method,
      "acp_playground.request.waits_for": user ? "user" : "client",
      ...(r.outcome !== undefined ? { "acp_playground.request.outcome": r.outcome } : {}),
      ...(tool ? { [ATTR_GEN_AI_TOOL_CALL_ID]: tool.toolCallId } : {}),
    };
    const message = unanswered ?? (r.error ? "the client answered with an error" : undefined);
    if (message) attributes[ATTR_ERROR_TYPE] = unanswered ? "unanswered" : "error_response";
    return this.#finalize({
      traceId: this.#traceId(t),
      spanId: spanIdOf(this.#key("request", seq)),
      parentSpanId: tool ? this.#toolSpanId(t, tool.toolCallId) : this.#turnSpanId(t),
      name: r.method,
      kind: "server",
      start: r.start,
      end: Math.max(r.start, end),
      attributes,
      events: [],
      status: message ? { code: "error", message } : { code: "unset" },
      links: [],
    });
  }

  #toolSpan(t: WaterfallTurn, tool: ToolItem, o: OpenTurn, end: number): TraceSpan {
    const d = o.details.tools.get(tool.toolCallId) ?? {};
    const name = d.name ?? d.kind ?? tool.title ?? "tool";
    const seq = tool.seqs.first ?? t.promptSeq;
    const failed = tool.status === "failed";
    const attributes: Attributes = {
      ...this.#where(seq),
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: name,
      [ATTR_GEN_AI_TOOL_CALL_ID]: tool.toolCallId,
      ...(tool.status !== undefined ? { "acp_playground.tool.status": tool.status } : {}),
      ...(d.kind !== undefined ? { "acp_playground.tool.kind": d.kind } : {}),
      ...(tool.title !== undefined ? { "acp_playground.tool.title": tool.title } : {}),
      ...(this.#content && d.input !== undefined ? { [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: d.input } : {}),
      ...(this.#content && d.output !== undefined ? { [ATTR_GEN_AI_TOOL_CALL_RESULT]: d.output } : {}),
    };
    if (failed) attributes[ATTR_ERROR_TYPE] = "tool_failed";
    return this.#finalize({
      traceId: this.#traceId(t),
      spanId: this.#toolSpanId(t, tool.toolCallId),
      parentSpanId: this.#turnSpanId(t),
      name: `${GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL} ${name}`,
      kind: "internal",
      start: tool.start,
      end: Math.max(tool.start, tool.end ?? end),
      attributes,
      events: [],
      status: failed ? { code: "error", message: "the tool call failed" } : { code: "unset" },
      links: [],
    });
  }

  #turnSpan(t: WaterfallTurn, o: OpenTurn, end: number): TraceSpan {
    const agent = this.#agentName;
    const provider = PROVIDERS.find(([re]) => re.test(agent) || re.test(this.#source.profile ?? ""))?.[1];
    const usage = t.usage ?? o.details.usage;
    const stop = t.end?.stopReason;
    const error = t.end?.error ?? (stop === "failed" ? "the turn failed" : undefined);
    const attributes: Attributes = {
      ...this.#where(t.promptSeq),
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      [ATTR_GEN_AI_AGENT_NAME]: agent,
      ...(this.#agent.version !== undefined ? { [ATTR_GEN_AI_AGENT_VERSION]: this.#agent.version } : {}),
      ...(provider ? { [ATTR_GEN_AI_PROVIDER_NAME]: provider } : {}),
      ...(this.#model ? { [ATTR_GEN_AI_REQUEST_MODEL]: this.#model } : {}),
      [ATTR_GEN_AI_CONVERSATION_ID]: t.sessionId,
      // Phoenix and Langfuse group traces into sessions by this one.
      [ATTR_SESSION_ID]: t.sessionId,
      "acp_playground.turn.index": t.index,
      ...(t.turnId !== undefined ? { "acp_playground.turn.id": t.turnId } : {}),
      ...(stop ? { [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [stop] } : {}),
      ...(t.firstOutput ? { [ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK]: (t.firstOutput.ts - t.start) / 1000 } : {}),
      ...(usage?.inputTokens !== undefined ? { [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: usage.inputTokens } : {}),
      ...(usage?.outputTokens !== undefined ? { [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: usage.outputTokens } : {}),
      ...(usage?.thoughtTokens !== undefined
        ? { [ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS]: usage.thoughtTokens }
        : {}),
      ...(usage?.cachedReadTokens !== undefined
        ? { [ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: usage.cachedReadTokens }
        : {}),
      ...(usage?.cachedWriteTokens !== undefined
        ? { [ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS]: usage.cachedWriteTokens }
        : {}),
      ...(o.details.context?.used !== undefined ? { "acp_playground.context.used": o.details.context.used } : {}),
      ...(o.details.context?.size !== undefined ? { "acp_playground.context.size": o.details.context.size } : {}),
    };
    if (this.#content) {
      const { prompt, answer } = o.details;
      if (prompt !== undefined)
        attributes[ATTR_GEN_AI_INPUT_MESSAGES] = JSON.stringify([
          { role: "user", parts: [{ type: "text", content: prompt }] },
        ]);
      if (answer !== undefined)
        attributes[ATTR_GEN_AI_OUTPUT_MESSAGES] = JSON.stringify([
          { role: "assistant", parts: [{ type: "text", content: answer }], ...(stop ? { finish_reason: stop } : {}) },
        ]);
    }
    const events = [...o.errors];
    if (error !== undefined)
      events.push({ name: "exception", time: end, attributes: { [ATTR_EXCEPTION_MESSAGE]: error } });
    const failure = error ?? o.errors.at(-1)?.attributes[ATTR_EXCEPTION_MESSAGE];
    if (failure !== undefined) attributes[ATTR_ERROR_TYPE] = error !== undefined ? "agent_error" : "incomplete";
    const previous = this.#previous.get(t.sessionId);
    return this.#finalize({
      traceId: this.#traceId(t),
      spanId: this.#turnSpanId(t),
      name: `${GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${agent}`,
      kind: "client",
      start: t.start,
      end: Math.max(t.start, end),
      attributes,
      events,
      status: failure !== undefined ? { code: "error", message: String(failure) } : { code: "unset" },
      links: previous ? [{ ...previous, attributes: { "acp_playground.link": "previous_turn" } }] : [],
    });
  }

  /** The turn's remaining spans: unanswered requests, its tools, then itself (children before parents). */
  #close(t: WaterfallTurn, o: OpenTurn, end: number): TraceSpan[] {
    this.#open.delete(t);
    const out: TraceSpan[] = [];
    for (const r of o.pending) {
      out.push(this.#requestSpan(t, r, r.end ?? end, r.end === undefined ? "never answered" : undefined));
    }
    for (const tool of t.tools) out.push(this.#toolSpan(t, tool, o, end));
    out.push(this.#turnSpan(t, o, end));
    this.#previous.set(t.sessionId, { traceId: this.#traceId(t), spanId: this.#turnSpanId(t) });
    this.#waterfall.release(t);
    return out;
  }
}
