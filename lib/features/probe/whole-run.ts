/**
 * Checks over every frame of the run: framing, response shape, capabilities used, root fields.
 */
import { transportAndSchema } from "./kit-rpc-steps";
import { notAdvertised } from "../../protocol/client-capabilities";
import { isObject } from "../../protocol/json";
import { CLIENT_METHODS } from "../../protocol/methods";
import { R } from "./requirements";
import { messageOf, resultOf, type Json, type ProbeContext } from "./context";

/** Allowed root keys of the result `method` answers, from the schema (undefined: no schema for it). */
function resultKeys(ctx: ProbeContext, method: string): Set<string> | undefined {
  const defs = ctx.options.defs;
  if (!defs) return undefined;
  const entry = Object.entries(defs).find(
    ([name, d]) => name.endsWith("Response") && isObject(d) && d["x-method"] === method,
  );
  if (!entry) return undefined;
  const out = new Set<string>();
  const visit = (d: unknown, depth: number) => {
    if (!isObject(d) || depth > 8) return;
    if (isObject(d.properties)) for (const k of Object.keys(d.properties)) out.add(k);
    if (typeof d.$ref === "string") visit(defs[d.$ref.replace("#/$defs/", "")], depth + 1);
    for (const k of ["allOf", "anyOf", "oneOf"])
      if (Array.isArray(d[k])) for (const x of d[k] as unknown[]) visit(x, depth + 1);
  };
  visit(entry[1], 0);
  return out;
}

/** Checks over every frame of the run: framing, response shape, capabilities used, root fields. */
export async function wholeRun(ctx: ProbeContext) {
  const all = ctx.parsed();
  const fromAgent = all.filter((f) => f.dir === "from-agent");
  const invalid = fromAgent.filter((f) => f.kind === "invalid");
  ctx.check(
    R.transportLines,
    invalid.length ? "fail" : "pass",
    invalid.length
      ? `${invalid.length} lines that are not JSON-RPC (${invalid[0]!.error ?? "invalid"})`
      : `${fromAgent.length} lines, all JSON-RPC`,
    invalid.map((f) => f.seq).slice(0, 20),
  );
  const badShape = fromAgent.filter((f) => {
    if (f.kind !== "response") return false;
    const m = messageOf(f) as Json | undefined;
    if (!m) return false;
    if ("result" in m === "error" in m) return true;
    const e = m.error;
    return "error" in m && !(isObject(e) && Number.isInteger(e.code) && typeof e.message === "string");
  });
  ctx.check(
    R.responseShape,
    badShape.length ? "fail" : "pass",
    badShape.length
      ? `${badShape.length} malformed responses`
      : "every response has one of result or error, errors with code and message",
    badShape.map((f) => f.seq).slice(0, 20),
  );
  const agentRequests = fromAgent.filter((f) => f.kind === "request" && f.method);
  const unadvertised = (prefix: string) =>
    agentRequests.filter(
      (f) => f.method!.startsWith(prefix) && notAdvertised(f.method!, ctx.clientCapabilities) !== undefined,
    );
  for (const [requirement, prefix] of [
    [R.clientFs, "fs/"],
    [R.clientTerminal, "terminal/"],
  ] as const) {
    const bad = unadvertised(prefix);
    ctx.check(
      requirement,
      bad.length ? "fail" : "pass",
      bad.length
        ? `${bad.length} requests not advertised: ${[...new Set(bad.map((f) => f.method))].join(", ")}`
        : `no ${prefix}* request beyond what was advertised`,
      bad.map((f) => f.seq).slice(0, 20),
    );
  }
  const elicit =
    ctx.clientCapabilities.elicitation === undefined
      ? agentRequests.filter((f) => f.method === CLIENT_METHODS.elicitation_create)
      : [];
  ctx.check(
    R.clientElicitation,
    elicit.length ? "fail" : "pass",
    elicit.length
      ? `${elicit.length} elicitation/create without the capability`
      : "no elicitation beyond what was advertised",
    elicit.map((f) => f.seq),
  );
  const extra: Array<{ seq: number; method: string; keys: string[] }> = [];
  for (const f of fromAgent) {
    if (f.kind !== "response" || !f.method) continue;
    const result = resultOf(f);
    const allowed = resultKeys(ctx, f.method);
    if (!allowed || !isObject(result)) continue;
    const unknown = Object.keys(result).filter((k) => !allowed.has(k));
    if (unknown.length) extra.push({ seq: f.seq, method: f.method, keys: unknown });
  }
  if (ctx.options.defs)
    ctx.check(
      R.rootFields,
      extra.length ? "fail" : "pass",
      extra.length
        ? [...new Map(extra.map((e) => [`${e.method}: ${e.keys.join(", ")}`, e])).keys()].join("; ").slice(0, 300)
        : "no custom root fields in results",
      extra.map((e) => e.seq).slice(0, 20),
    );
  transportAndSchema(ctx);
  await Promise.resolve();
}
