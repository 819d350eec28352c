/**
 * Token usage as agents report it: a `session/prompt` result's ACP `usage`
 * field or Gemini's `_meta.quota`; a `usage_update` session update (context
 * used and window size); or `_meta.usage` on any session update (Qwen Code
 * sends it on an otherwise empty `agent_message_chunk`).
 */
import { isObject, num } from "../protocol/json";

export interface TurnUsage {
  /** "thread/tokenUsage/updated": a Codex app-server turn's, summed by the waterfall (lib/folds/waterfall.ts). */
  source: "usage" | "_meta.quota" | "usage_update" | "_meta.usage" | "thread/tokenUsage/updated";
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  thoughtTokens?: number;
  cachedReadTokens?: number;
  cachedWriteTokens?: number;
  /** usage_update: tokens currently in context, and the window size. */
  contextUsed?: number;
  contextSize?: number;
}

type Obj = Record<string, unknown>;
const clean = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
/** The first of several spellings that holds a number (ACP camelCase, OpenAI and Gemini names). */
const first = (u: Obj, ...names: string[]) => names.map((n) => num(u[n])).find((v) => v !== undefined);

function tokenCounts(u: Obj): Omit<TurnUsage, "source"> {
  const inputTokens = first(u, "inputTokens", "promptTokens", "input_tokens", "prompt_tokens", "promptTokenCount");
  const outputTokens = first(
    u,
    "outputTokens",
    "completionTokens",
    "candidatesTokens",
    "output_tokens",
    "completion_tokens",
    "candidatesTokenCount",
  );
  return {
    inputTokens,
    outputTokens,
    totalTokens:
      first(u, "totalTokens", "total_tokens", "totalTokenCount") ??
      (inputTokens !== undefined && outputTokens !== undefined ? inputTokens + outputTokens : undefined),
    thoughtTokens: first(u, "thoughtTokens", "thoughtsTokens", "thoughts_tokens", "thoughtsTokenCount"),
    cachedReadTokens: first(u, "cachedReadTokens", "cachedTokens", "cached_tokens", "cachedContentTokenCount"),
    cachedWriteTokens: first(u, "cachedWriteTokens"),
  };
}

export function turnUsageOf(result: unknown): TurnUsage | undefined {
  if (!isObject(result)) return undefined;
  if (isObject(result.usage)) return clean<TurnUsage>({ source: "usage", ...tokenCounts(result.usage) });
  const meta = isObject(result._meta) ? result._meta : {};
  if (isObject(meta.usage)) return clean<TurnUsage>({ source: "_meta.usage", ...tokenCounts(meta.usage) });
  const quota = meta.quota;
  if (!isObject(quota)) return undefined;
  const tc = isObject(quota.token_count) ? quota.token_count : {};
  return clean<TurnUsage>({ source: "_meta.quota", ...tokenCounts(tc) });
}

/** Usage carried by one `session/update`'s `update` (a `usage_update`, or `_meta.usage` on any kind). */
export function updateUsageOf(update: unknown): TurnUsage | undefined {
  if (!isObject(update)) return undefined;
  if (update.sessionUpdate === "usage_update") {
    return clean<TurnUsage>({ source: "usage_update", contextUsed: num(update.used), contextSize: num(update.size) });
  }
  const meta = isObject(update._meta) ? update._meta : undefined;
  if (meta && isObject(meta.usage)) return clean<TurnUsage>({ source: "_meta.usage", ...tokenCounts(meta.usage) });
  return undefined;
}

/**
 * An `agent_message_chunk` that only carries usage (no text, no other content):
 * nothing to show as a message.
 */
export function isUsageOnlyChunk(update: unknown): boolean {
  if (!isObject(update) || update.sessionUpdate !== "agent_message_chunk") return false;
  const content = update.content;
  const empty = !isObject(content) || (content.type === "text" && (content.text === "" || content.text === undefined));
  return empty && updateUsageOf(update) !== undefined;
}
