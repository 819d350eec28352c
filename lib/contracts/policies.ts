/**
 * The policy vocabulary of the contracts: which agent requests the playground
 * can answer and the three ways it answers them (lib/features/policy.ts applies them).
 */
import { CLIENT_METHODS } from "../protocol/methods";

export const POLICIES = ["ask", "auto", "deny"] as const;
export type Policy = (typeof POLICIES)[number];

/** Agent->client requests the playground can answer (notifications excluded). */
export const ANSWERABLE_METHODS: readonly string[] = [
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
