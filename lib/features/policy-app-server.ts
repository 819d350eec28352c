/**
 * How the answer policies apply to Codex app-server requests: "auto" accepts an approval (once,
 * for this turn), "deny" declines it (the turn goes on without it). A question from the model
 * (`item/tool/requestUserInput`) has nothing to decline: "auto" picks each question's first
 * option, "deny" refuses it with an error.
 */
import { APP_SERVER_REQUESTS } from "../protocol/app-server-methods";
import { isObject, obj, str } from "../protocol/json";
import type { RpcError } from "../protocol/jsonrpc";
import { denied } from "./policy";

export type AppServerAnswer = { result: Record<string, unknown> } | { error: RpcError };

/** The answer to an app-server request under "auto" or "deny"; undefined for a method that is not an app-server request. */
export function appServerAnswer(method: string, params: unknown, policy: "auto" | "deny"): AppServerAnswer | undefined {
  const accept = policy === "auto";
  switch (method) {
    case APP_SERVER_REQUESTS.command_approval:
    case APP_SERVER_REQUESTS.file_change_approval:
      return { result: { decision: accept ? "accept" : "decline" } };
    case APP_SERVER_REQUESTS.exec_command_approval:
    case APP_SERVER_REQUESTS.apply_patch_approval:
      return { result: { decision: accept ? "approved" : "denied" } };
    case APP_SERVER_REQUESTS.permissions_approval:
      // Granting nothing is how a client says no.
      return { result: { permissions: accept ? obj(obj(params).permissions) : {}, scope: "turn" } };
    case APP_SERVER_REQUESTS.tool_user_input:
      return accept ? { result: { answers: firstOptions(obj(params).questions) } } : { error: denied(method) };
    default:
      return undefined;
  }
}

function firstOptions(questions: unknown): Record<string, { answers: string[] }> {
  const answers: Record<string, { answers: string[] }> = {};
  for (const q of Array.isArray(questions) ? questions.filter(isObject) : []) {
    const id = str(q.id);
    const label = Array.isArray(q.options) && isObject(q.options[0]) ? str(q.options[0].label) : undefined;
    if (id !== undefined)
      Object.defineProperty(answers, id, {
        value: { answers: label === undefined ? [] : [label] },
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return answers;
}
