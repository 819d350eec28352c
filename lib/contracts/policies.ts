/**
 * The policy vocabulary of the contracts: which agent requests the playground
 * can answer and the three ways it answers them (lib/features/policy.ts applies them).
 */
import { APP_SERVER_REQUESTS } from "../protocol/app-server-methods";
import { CLIENT_METHODS } from "../protocol/methods";
import type { ProtocolName } from "../protocol/protocols";

export const POLICIES = ["ask", "auto", "deny"] as const;
export type Policy = (typeof POLICIES)[number];

/** ACP's agent->client requests the playground can answer (notifications excluded). */
const ACP_ANSWERABLE: readonly string[] = [
  CLIENT_METHODS.session_request_permission,
  CLIENT_METHODS.fs_read_text_file,
  CLIENT_METHODS.fs_write_text_file,
  CLIENT_METHODS.terminal_create,
  CLIENT_METHODS.terminal_output,
  CLIENT_METHODS.terminal_wait_for_exit,
  CLIENT_METHODS.terminal_kill,
  CLIENT_METHODS.terminal_release,
  CLIENT_METHODS.elicitation_create,
];

/** Codex app-server's requests: approvals ("auto" accepts, "deny" declines) and the model's questions. */
export const APP_SERVER_ANSWERABLE: readonly string[] = Object.values(APP_SERVER_REQUESTS);

/** Agent->client requests the playground can answer, in either protocol (their method names never collide). */
export const ANSWERABLE_METHODS: readonly string[] = [...ACP_ANSWERABLE, ...APP_SERVER_ANSWERABLE];

/** Requests the relay itself can carry out (files and terminals in the workspace). */
export const SERVED_METHODS: readonly string[] = ANSWERABLE_METHODS.filter(
  (m) => m.startsWith("fs/") || m.startsWith("terminal/"),
);

/**
 * The policy key for agent requests that are neither an ACP client method nor
 * an extension (`_`-prefixed), such as Qwen Code's `craft/drainMidTurnQueue`.
 * "auto" and "deny" answer them -32601; "ask" leaves them to the user.
 */
export const UNKNOWN_METHODS = "(unknown methods)";

/** The policy keys that matter to an agent speaking `protocol`, in the order they are listed. */
export const policyMethodsOf = (protocol: ProtocolName): readonly string[] => [
  ...(protocol === "codex-app-server" ? APP_SERVER_ANSWERABLE : ACP_ANSWERABLE),
  UNKNOWN_METHODS,
];
