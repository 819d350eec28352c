/**
 * How the answer policies apply to Codex app-server requests: "auto" accepts an approval (once,
 * for this turn), "deny" declines it (the turn goes on without it). A question from the model
 * (`item/tool/requestUserInput`) has nothing to decline: "auto" picks each question's first
 * option, "deny" refuses it with an error.
 */
import { APP_SERVER_REQUESTS } from "../../../protocol/app-server-methods";
import { isObject, obj, str } from "../../../protocol/json";
import type { RpcError } from "../../../protocol/jsonrpc";
import { denied } from "../../answers/policy";

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
      return accept
        ? { result: userInputResult(userInputQuestions(params).map((q) => [q.id, q.options.slice(0, 1)])) }
        : { error: denied(method) };
    default:
      return undefined;
  }
}

/** One question of `item/tool/requestUserInput`, as its card asks it. */
export interface UserInputQuestion {
  id: string;
  header: string;
  question: string;
  /** The option labels to pick from; none: a free answer. */
  options: string[];
  /** A free answer is allowed besides the options. */
  other: boolean;
  secret: boolean;
}

export function userInputQuestions(params: unknown): UserInputQuestion[] {
  const questions = obj(params).questions;
  return (Array.isArray(questions) ? questions.filter(isObject) : []).flatMap((q) => {
    const id = str(q.id);
    if (id === undefined) return [];
    const options = (Array.isArray(q.options) ? q.options.filter(isObject) : [])
      .map((o) => str(o.label))
      .filter((l): l is string => l !== undefined);
    return [
      {
        id,
        header: str(q.header) ?? "",
        question: str(q.question) ?? "",
        options,
        other: q.isOther === true,
        secret: q.isSecret === true,
      },
    ];
  });
}

/** The answer to `item/tool/requestUserInput`: each question's id with the answers given. */
export const userInputResult = (answers: ReadonlyArray<readonly [string, string[]]>) => ({
  // fromEntries defines own keys: a question id "__proto__" stays an answer.
  answers: Object.fromEntries(answers.map(([id, given]) => [id, { answers: given }])),
});

/** One answer the user can give to an app-server approval: a button on its card. */
export interface ApprovalChoice {
  label: string;
  result: Record<string, unknown>;
  tone: "accept" | "decline" | "neutral";
}

const DECISIONS = ["accept", "acceptForSession", "decline", "cancel"] as const;

const DECISION_CHOICE: Readonly<Record<string, Omit<ApprovalChoice, "result">>> = {
  accept: { label: "Accept", tone: "accept" },
  acceptForSession: { label: "Accept for session", tone: "accept" },
  decline: { label: "Decline", tone: "decline" },
  cancel: { label: "Cancel", tone: "neutral" },
  approved: { label: "Approve", tone: "accept" },
  approved_for_session: { label: "Approve for session", tone: "accept" },
  denied: { label: "Deny", tone: "decline" },
  abort: { label: "Abort", tone: "neutral" },
  acceptWithExecpolicyAmendment: { label: "Accept and allow similar commands", tone: "accept" },
  applyNetworkPolicyAmendment: { label: "Apply the network rule", tone: "neutral" },
};

function decisionChoice(decision: unknown): ApprovalChoice | undefined {
  const key = typeof decision === "string" ? decision : isObject(decision) ? Object.keys(decision)[0] : undefined;
  const choice = key === undefined ? undefined : DECISION_CHOICE[key];
  return choice && { ...choice, result: { decision } };
}

/**
 * The answers an app-server request offers, in the server's order: a command approval's
 * `availableDecisions` (accept, acceptForSession, decline, cancel by default), the legacy
 * review decisions, a permission grant for the turn or the session; none for a question
 * (answered by hand).
 */
export function approvalChoices(method: string, params: unknown): ApprovalChoice[] {
  const p = obj(params);
  const pick = (decisions: readonly unknown[]) =>
    decisions.map(decisionChoice).filter((c): c is ApprovalChoice => c !== undefined);
  switch (method) {
    case APP_SERVER_REQUESTS.command_approval:
    case APP_SERVER_REQUESTS.file_change_approval:
      return pick(Array.isArray(p.availableDecisions) ? p.availableDecisions : DECISIONS);
    case APP_SERVER_REQUESTS.exec_command_approval:
    case APP_SERVER_REQUESTS.apply_patch_approval:
      return pick(["approved", "approved_for_session", "denied", "abort"]);
    case APP_SERVER_REQUESTS.permissions_approval: {
      const permissions = obj(p.permissions);
      return [
        { label: "Grant for this turn", tone: "accept", result: { permissions, scope: "turn" } },
        { label: "Grant for session", tone: "accept", result: { permissions, scope: "session" } },
        { label: "Decline", tone: "decline", result: { permissions: {}, scope: "turn" } },
      ];
    }
    default:
      return [];
  }
}
