/**
 * ACP v2's own answers to its permission request: v2 reshaped its params (a `subject` where v1 has
 * `toolCall`), so v1's check of them (the relay's generic answer) refuses every v2 request. The
 * outcome is v1's: allow picks an allow option, deny a reject option, else the request is cancelled.
 */
import { isObject } from "../../../protocol/json";
import { CLIENT_METHODS } from "../../../protocol/methods";
import { autoPermission } from "../../answers/policy";
import type { ProtocolAnswer } from "../spec";

const invalid = (message: string): ProtocolAnswer => ({
  error: { code: -32602, message: `Invalid params: ${message}` },
});

/** The options of a v2 permission request, when its params are well formed. */
function optionsOf(params: unknown): Array<{ optionId: string; kind: string }> | string {
  if (!isObject(params)) return "params: not an object";
  if (typeof params.sessionId !== "string") return "params.sessionId: missing";
  // Optional in v2's schema (omitted and null mean none); when given, an object.
  if (params.subject !== undefined && params.subject !== null && !isObject(params.subject))
    return "params.subject: not an object";
  const options = params.options;
  if (!Array.isArray(options)) return "params.options: not an array";
  const bad = options.findIndex((o) => !isObject(o) || typeof o.optionId !== "string" || typeof o.kind !== "string");
  if (bad >= 0) return `params.options[${bad}]: an option needs optionId and kind`;
  return options as Array<{ optionId: string; kind: string }>;
}

export function answerV2(method: string, params: unknown, policy: "auto" | "deny"): ProtocolAnswer | undefined {
  if (method !== CLIENT_METHODS.session_request_permission) return undefined;
  const options = optionsOf(params);
  if (typeof options === "string") return invalid(options);
  if (policy === "auto") return { result: autoPermission({ options: options as never }) };
  const reject = options.find((o) => o.kind === "reject_once") ?? options.find((o) => o.kind === "reject_always");
  return {
    result: reject
      ? { outcome: { outcome: "selected", optionId: reject.optionId } }
      : { outcome: { outcome: "cancelled" } },
  };
}
