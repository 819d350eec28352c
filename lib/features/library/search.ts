/**
 * What the library's search index keeps of a transcript, and how a query is read: each
 * transcript line becomes at most one document (the text a reader looks for, then every other
 * string it carries), a typed query becomes an FTS5 expression that cannot inject syntax, and a
 * hit is shown as the line of its text that matches. Pure: the index (server/transcripts/)
 * stores and ranks.
 */
import { isObject, str } from "../../protocol/json";
import { AGENT_METHODS, CLIENT_METHODS } from "../../protocol/methods";
import {
  APP_SERVER_CLIENT,
  APP_SERVER_NOTIFICATIONS as ASN,
  APP_SERVER_REQUESTS,
} from "../../protocol/app-server-methods";
import type { FrameEvent, TranscriptEvent } from "../../contracts/transcript";
import {
  MAX_PHRASE_WORDS,
  MAX_QUERY_TERMS,
  type MethodLatency,
  type SearchField,
} from "../../contracts/library-search";
import { LatencyBuilder } from "../../folds/method-latency";

/** Text kept per document: the part a reader looks for, and all the other strings. */
const BODY_CHARS = 16 * 1024;
const EXTRA_CHARS = 32 * 1024;

export interface SearchDoc {
  /** The frame's seq; for stderr and lifecycle lines, the last frame's before them (0: none yet). */
  seq: number;
  ts: number;
  dir?: "to-agent" | "from-agent";
  /** request / response / notification / invalid, or stderr / lifecycle. */
  kind: string;
  method?: string;
  field: SearchField;
  error: boolean;
  body: string;
  extra: string;
  /** For a streamed chunk: which message it is part of (session, kind and message, or the item); consecutive chunks of one are one text. */
  stream?: string;
}

/** A response's latency, for the library's latency table. */
export interface CallTiming {
  seq: number;
  method: string;
  /** The request's direction (the response's, reversed). */
  dir: "to-agent" | "from-agent";
  ms: number;
  error: boolean;
}

const cut = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);

/** Every string in a value, depth first, up to `max` characters in all (keys are left out, `jsonrpc` too). */
function strings(value: unknown, max: number): string {
  const out: string[] = [];
  let size = 0;
  const walk = (v: unknown, depth: number): void => {
    if (size >= max || depth > 32) return;
    if (typeof v === "string") {
      out.push(v);
      size += v.length + 1;
    } else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isObject(v)) for (const [k, x] of Object.entries(v)) if (k !== "jsonrpc") walk(x, depth + 1);
  };
  walk(value, 0);
  return cut(out.join("\n"), max);
}

const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? content.map(textOf).filter(Boolean).join("\n")
    : isObject(content)
      ? (str(content.text) ?? str(content.uri) ?? str(content.path) ?? textOf(content.content))
      : "";

const CHUNK_FIELDS: Record<string, SearchField> = {
  agent_message_chunk: "message",
  user_message_chunk: "prompt",
  agent_thought_chunk: "thought",
};

/** App-server deltas: the text they stream, and its field. */
const DELTA_FIELDS: Record<string, SearchField> = {
  [ASN.agent_message_delta]: "message",
  [ASN.reasoning_summary_text_delta]: "thought",
  [ASN.reasoning_text_delta]: "thought",
  [ASN.command_output_delta]: "tool",
  [ASN.file_change_output_delta]: "tool",
};

const APPROVALS = new Set<string>(Object.values(APP_SERVER_REQUESTS));

const lines = (...parts: unknown[]) => parts.filter((p): p is string => typeof p === "string" && p !== "").join("\n");

/** An app-server item's text (item/started, item/completed): a message, reasoning, a command and its output, paths. */
function itemBody(item: Record<string, unknown>): { field: SearchField; body: string } | undefined {
  switch (item.type) {
    case "agentMessage":
    case "plan":
      return { field: "message", body: str(item.text) ?? "" };
    case "reasoning":
      return { field: "thought", body: strings([item.summary, item.content], BODY_CHARS) };
    case "commandExecution":
      return { field: "tool", body: lines(item.command, item.aggregatedOutput) };
    case "fileChange": {
      const changes = Array.isArray(item.changes) ? item.changes.filter(isObject) : [];
      return { field: "tool", body: lines(...changes.map((c) => c.path)) };
    }
    case "mcpToolCall":
    case "dynamicToolCall":
      return { field: "tool", body: lines(item.server, item.tool) };
    case "webSearch":
      return { field: "tool", body: lines(item.query) };
    default:
      return undefined;
  }
}

/** The frame's main text and the field it comes from. */
function frameBody(e: FrameEvent, message: unknown): { field: SearchField; body: string; stream?: string } {
  if (!isObject(message)) return { field: "frame", body: e.raw };
  const params = isObject(message.params) ? message.params : {};
  if (isObject(message.error)) {
    const err = message.error;
    return { field: "error", body: [str(err.message) ?? "", strings(err.data, 2048)].filter(Boolean).join("\n") };
  }
  if (e.method === CLIENT_METHODS.session_update && isObject(params.update)) {
    const u = params.update;
    const kind = str(u.sessionUpdate) ?? "";
    if (kind in CHUNK_FIELDS)
      return {
        field: CHUNK_FIELDS[kind]!,
        body: textOf(u.content),
        stream: `${str(params.sessionId) ?? ""} ${kind} ${str(u.messageId) ?? ""}`,
      };
    if (kind === "tool_call" || kind === "tool_call_update") {
      const paths = Array.isArray(u.locations) ? u.locations.map((l) => (isObject(l) ? str(l.path) : "")) : [];
      return { field: "tool", body: [str(u.title) ?? "", ...paths, textOf(u.content)].filter(Boolean).join("\n") };
    }
  }
  if (e.method === AGENT_METHODS.session_prompt && e.kind === "request")
    return { field: "prompt", body: textOf(params.prompt) };
  // Codex's app-server (docs/app-server.md).
  if (e.method === APP_SERVER_CLIENT.turn_start && e.kind === "request")
    return { field: "prompt", body: textOf(params.input) };
  if (e.kind === "notification" && e.method !== undefined && e.method in DELTA_FIELDS)
    return {
      field: DELTA_FIELDS[e.method]!,
      body: str(params.delta) ?? "",
      stream: `${e.method} ${str(params.itemId) ?? ""}`,
    };
  if ((e.method === ASN.item_started || e.method === ASN.item_completed) && isObject(params.item)) {
    const item = itemBody(params.item);
    if (item) return item;
  }
  if (e.kind === "request" && e.method !== undefined && APPROVALS.has(e.method))
    return { field: "tool", body: lines(params.command, params.reason, params.grantRoot) };
  if (e.method === ASN.error && isObject(params.error))
    return { field: "error", body: str(params.error.message) ?? "" };
  if (e.method === ASN.turn_completed && isObject(params.turn) && isObject(params.turn.error))
    return { field: "error", body: str(params.turn.error.message) ?? "" };
  if (e.kind === "request" && (e.method === CLIENT_METHODS.session_request_permission || isObject(params.toolCall))) {
    const tc = isObject(params.toolCall) ? params.toolCall : {};
    return { field: "tool", body: str(tc.title) ?? "" };
  }
  if (e.kind === "request" && typeof params.path === "string") return { field: "tool", body: params.path };
  return { field: "frame", body: "" };
}

/** The document of one transcript line, or none (headers, agent-info, an event with no text). */
export function searchDoc(e: TranscriptEvent, lastSeq: number): SearchDoc | undefined {
  if (e.type === "frame") {
    let message: unknown;
    try {
      message = JSON.parse(e.raw);
    } catch {
      message = undefined;
    }
    const { field, body, stream } = frameBody(e, message);
    const error = e.kind === "invalid" || (isObject(message) && isObject(message.error));
    // A streamed chunk's other strings are its session id and kind: not worth indexing twice per frame.
    const plain = field === "message" || field === "thought" || (field === "prompt" && e.kind === "notification");
    return {
      seq: e.seq,
      ts: e.ts,
      dir: e.dir,
      kind: e.kind,
      ...(e.method ? { method: e.method } : {}),
      field,
      error,
      body: cut(body, BODY_CHARS),
      extra: message === undefined || plain ? "" : strings(message, EXTRA_CHARS),
      ...(stream !== undefined ? { stream } : {}),
    };
  }
  if (e.type === "stderr")
    return {
      seq: lastSeq,
      ts: e.ts,
      kind: "stderr",
      field: "stderr",
      error: false,
      body: cut(e.text, BODY_CHARS),
      extra: "",
    };
  if (e.type === "lifecycle" && e.message) {
    const error = e.event === "error" || e.event === "capped";
    return {
      seq: lastSeq,
      ts: e.ts,
      kind: "lifecycle",
      field: error ? "error" : "lifecycle",
      error,
      body: cut(`${e.event}: ${e.message}`, BODY_CHARS),
      extra: "",
    };
  }
  return undefined;
}

/** A response's timing (it carries the method and latency the relay paired it with). */
export function callTiming(e: TranscriptEvent): CallTiming | undefined {
  if (e.type !== "frame" || e.kind !== "response" || !e.method || typeof e.latencyMs !== "number") return undefined;
  if (!Number.isFinite(e.latencyMs) || e.latencyMs < 0) return undefined;
  return {
    seq: e.seq,
    method: e.method,
    dir: e.dir === "from-agent" ? "to-agent" : "from-agent",
    ms: e.latencyMs,
    error: e.raw.includes('"error"') && hasError(e.raw),
  };
}

function hasError(raw: string): boolean {
  try {
    const m: unknown = JSON.parse(raw);
    return isObject(m) && m.error !== undefined;
  } catch {
    return false;
  }
}

/** Words of a text as the index's tokenizer (unicode61) sees them: letters and digits. */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A typed query's terms: words, and "quoted phrases" kept whole. A term typed twice counts once,
 * where it was typed last (the last term is the word being typed, a prefix).
 */
export function queryTerms(input: string): string[][] {
  const terms = new Map<string, string[]>();
  for (const m of input.matchAll(/"([^"]*)"|(\S+)/g)) {
    const words = (m[1] ?? m[2] ?? "").match(WORD);
    if (!words) continue;
    const term = words.map((w) => w.toLowerCase());
    const key = term.join(" ");
    terms.delete(key);
    terms.set(key, term);
  }
  return [...terms.values()];
}

/**
 * The terms a search looks for: at most MAX_QUERY_TERMS, each phrase at most MAX_PHRASE_WORDS
 * words (every term is one more list of matches to walk), and what was left out, to say so.
 */
export function searchTerms(input: string): { terms: string[][]; cut?: string } {
  const all = queryTerms(input);
  const terms = all.slice(0, MAX_QUERY_TERMS).map((t) => t.slice(0, MAX_PHRASE_WORDS));
  const notes: string[] = [];
  if (all.length > MAX_QUERY_TERMS)
    notes.push(`only the first ${MAX_QUERY_TERMS} of its ${all.length} different words or phrases were searched`);
  if (all.some((t) => t.length > MAX_PHRASE_WORDS))
    notes.push(`a phrase was searched by its first ${MAX_PHRASE_WORDS} words`);
  return notes.length > 0 ? { terms, cut: `The query was cut: ${notes.join("; ")}.` } : { terms };
}

/**
 * The FTS5 MATCH expression of a typed query: every term must match (a phrase's words in
 * order), the last word as a prefix while it is being typed. Words are quoted, so no input is
 * read as FTS5 syntax. Undefined when the query has no word.
 */
export function ftsQuery(input: string): string | undefined {
  const terms = queryTerms(input);
  if (terms.length === 0) return undefined;
  const quoted = input.trimEnd().endsWith('"');
  return terms
    .map((words, i) => {
      const phrase = `"${words.join(" ")}"`;
      return i === terms.length - 1 && !quoted ? `${phrase}*` : phrase;
    })
    .join(" AND ");
}

const CONTEXT_CHARS = 80;

/**
 * The line of `text` that matches the query best (most of its words), cut to about
 * 2×CONTEXT_CHARS around the first match, with the matched words marked.
 */
export function matchLine(text: string, input: string): { line: string; marks: [number, number][] } {
  const words = [...new Set(queryTerms(input).flat())];
  const lines = text.split("\n");
  let best = { line: lines.find((l) => l.trim() !== "") ?? "", score: 0 };
  const find = (line: string) => {
    const marks: [number, number][] = [];
    for (const m of line.matchAll(WORD)) {
      const w = m[0].toLowerCase();
      if (words.some((q) => w.startsWith(q))) marks.push([m.index, m.index + m[0].length]);
    }
    return marks;
  };
  for (const line of lines) {
    const lower = line.toLowerCase();
    const score = words.filter((w) => lower.includes(w)).length;
    if (score > best.score) best = { line, score };
    if (score === words.length) break;
  }
  const marks = find(best.line);
  const first = marks[0]?.[0] ?? 0;
  const start = Math.max(0, first - CONTEXT_CHARS);
  const end = Math.min(best.line.length, Math.max(first + CONTEXT_CHARS, start + 2 * CONTEXT_CHARS));
  const prefix = start > 0 ? "…" : "";
  const line = `${prefix}${best.line.slice(start, end)}${end < best.line.length ? "…" : ""}`;
  const shift = prefix.length - start;
  return {
    line,
    marks: marks.filter(([a, b]) => a >= start && b <= end).map(([a, b]): [number, number] => [a + shift, b + shift]),
  };
}

/**
 * Latency per method and direction across the library, slowest p95 first: the
 * same table as one transcript's (lib/folds/method-latency.ts), fed the
 * index's timed calls, each rounded to 0.1 ms.
 */
export function latencyRows(calls: Iterable<Pick<CallTiming, "method" | "dir" | "ms" | "error">>): MethodLatency[] {
  const builder = new LatencyBuilder();
  for (const c of calls) builder.addCall({ ...c, ms: Math.round(c.ms * 10) / 10 });
  return builder.table();
}
