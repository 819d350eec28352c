/**
 * The policy vocabulary of the contracts: which agent requests the playground
 * can answer and the three ways it answers them (lib/features/answers/policy.ts applies them).
 */
import { APP_SERVER_REQUESTS } from "../protocol/app-server-methods";
import { descriptorOf, PROTOCOL_NAMES, type ProtocolName } from "../protocol/protocols";

export const POLICIES = ["ask", "auto", "deny"] as const;
export type Policy = (typeof POLICIES)[number];

/** Codex app-server's requests: approvals and the model's questions (one table: the app-server's methods). */
export const APP_SERVER_ANSWERABLE: readonly string[] = Object.values(APP_SERVER_REQUESTS);

/** Agent->client requests the playground can answer, in any protocol (their method names never collide). */
export const ANSWERABLE_METHODS: readonly string[] = [
  ...new Set(PROTOCOL_NAMES.flatMap((p) => descriptorOf(p).answerable)),
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

/** The policy keys that matter to an agent speaking `protocol`, in the order they are listed. */
export const policyMethodsOf = (protocol: ProtocolName): readonly string[] => [
  ...descriptorOf(protocol).answerable,
  UNKNOWN_METHODS,
];
