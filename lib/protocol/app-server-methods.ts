/**
 * The method names of Codex's app-server protocol that the playground itself calls or reads
 * (docs/app-server.md), and the thread and turn ids their messages carry. The full lists, with
 * their params, are in the schema generated from the pinned Codex (lib/protocol/app-server-schema.json,
 * scripts/app-server-schema.mjs).
 */
import { isObject } from "./json";

/** Client -> server requests and notifications the playground sends itself. */
export const APP_SERVER_CLIENT = {
  initialize: "initialize",
  initialized: "initialized",
  thread_start: "thread/start",
  thread_resume: "thread/resume",
  thread_fork: "thread/fork",
  thread_list: "thread/list",
  thread_read: "thread/read",
  thread_turns_list: "thread/turns/list",
  thread_items_list: "thread/items/list",
  turn_start: "turn/start",
  turn_steer: "turn/steer",
  turn_interrupt: "turn/interrupt",
  model_provider_list: "modelProvider/list",
} as const;

/** Server -> client notifications the playground folds into its views. */
export const APP_SERVER_NOTIFICATIONS = {
  thread_started: "thread/started",
  thread_status_changed: "thread/status/changed",
  thread_token_usage_updated: "thread/tokenUsage/updated",
  turn_started: "turn/started",
  turn_completed: "turn/completed",
  item_started: "item/started",
  item_completed: "item/completed",
  agent_message_delta: "item/agentMessage/delta",
  reasoning_summary_text_delta: "item/reasoning/summaryTextDelta",
  reasoning_text_delta: "item/reasoning/textDelta",
  command_output_delta: "item/commandExecution/outputDelta",
  file_change_output_delta: "item/fileChange/outputDelta",
  server_request_resolved: "serverRequest/resolved",
  error: "error",
  warning: "warning",
} as const;

/** Server -> client requests: approvals the turn waits on. */
export const APP_SERVER_REQUESTS = {
  command_approval: "item/commandExecution/requestApproval",
  file_change_approval: "item/fileChange/requestApproval",
  permissions_approval: "item/permissions/requestApproval",
  tool_user_input: "item/tool/requestUserInput",
  /** The v1 approvals, still sent by servers a client started with the legacy API. */
  exec_command_approval: "execCommandApproval",
  apply_patch_approval: "applyPatchApproval",
} as const;

/** What the server answers a request it is too busy for ("overloaded"): retry later. */
export const APP_SERVER_OVERLOADED = -32001;

/** The thread id in a thread/start (resume, fork, read) result or a thread/started notification's params. */
export function threadIdOf(value: unknown): string | undefined {
  const thread = isObject(value) && isObject(value.thread) ? value.thread : undefined;
  return typeof thread?.id === "string" ? thread.id : undefined;
}

/** The turn id in a turn/start result, or a turn/started and turn/completed notification's params. */
export function turnIdOf(value: unknown): string | undefined {
  const turn = isObject(value) && isObject(value.turn) ? value.turn : undefined;
  return typeof turn?.id === "string" ? turn.id : undefined;
}
