/**
 * Token usage of one prompt turn, from a `session/prompt` result: ACP's `usage`
 * field, or Gemini's `_meta.quota` (where Gemini CLI reports it).
 */

export interface TurnUsage {
  source: "usage" | "_meta.quota";
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  thoughtTokens?: number;
  cachedReadTokens?: number;
  cachedWriteTokens?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const clean = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function turnUsageOf(result: unknown): TurnUsage | undefined {
  if (!isObj(result)) return undefined;
  if (isObj(result.usage)) {
    const u = result.usage;
    return clean<TurnUsage>({
      source: "usage",
      inputTokens: num(u.inputTokens),
      outputTokens: num(u.outputTokens),
      totalTokens: num(u.totalTokens),
      thoughtTokens: num(u.thoughtTokens),
      cachedReadTokens: num(u.cachedReadTokens),
      cachedWriteTokens: num(u.cachedWriteTokens),
    });
  }
  const quota = isObj(result._meta) ? result._meta.quota : undefined;
  if (!isObj(quota)) return undefined;
  const tc = isObj(quota.token_count) ? quota.token_count : {};
  const inputTokens = num(tc.input_tokens);
  const outputTokens = num(tc.output_tokens);
  return clean<TurnUsage>({
    source: "_meta.quota",
    inputTokens,
    outputTokens,
    totalTokens:
      num(tc.total_tokens) ??
      (inputTokens !== undefined && outputTokens !== undefined ? inputTokens + outputTokens : undefined),
    thoughtTokens: num(tc.thoughts_tokens ?? tc.thought_tokens),
    cachedReadTokens: num(tc.cached_tokens),
  });
}
