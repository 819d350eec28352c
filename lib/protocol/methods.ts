/**
 * ACP method names, the playground's one list. They are the SDK's (checked by `satisfies`,
 * so a rename there fails the typecheck here) without importing the SDK at run time:
 * a value import from it would pull its zod validators into the browser bundle.
 */
import type {
  AGENT_METHODS as SDK_AGENT_METHODS,
  CLIENT_METHODS as SDK_CLIENT_METHODS,
  PROTOCOL_METHODS as SDK_PROTOCOL_METHODS,
} from "@agentclientprotocol/sdk/unstable";

/** Client -> agent (unstable included: the playground shows and sends them too). */
export const AGENT_METHODS = {
  initialize: "initialize",
  authenticate: "authenticate",
  providers_list: "providers/list",
  providers_set: "providers/set",
  providers_disable: "providers/disable",
  session_new: "session/new",
  session_load: "session/load",
  session_set_mode: "session/set_mode",
  session_set_config_option: "session/set_config_option",
  session_prompt: "session/prompt",
  session_cancel: "session/cancel",
  mcp_message: "mcp/message",
  session_list: "session/list",
  session_delete: "session/delete",
  session_fork: "session/fork",
  session_archive: "session/archive",
  session_unarchive: "session/unarchive",
  session_status: "session/status",
  session_set_title: "session/set_title",
  session_resume: "session/resume",
  session_close: "session/close",
  logout: "logout",
  auth_status: "auth/status",
} as const satisfies typeof SDK_AGENT_METHODS;

/** Agent -> client. */
export const CLIENT_METHODS = {
  session_request_permission: "session/request_permission",
  session_update: "session/update",
  fs_write_text_file: "fs/write_text_file",
  fs_read_text_file: "fs/read_text_file",
  terminal_create: "terminal/create",
  terminal_output: "terminal/output",
  terminal_release: "terminal/release",
  terminal_wait_for_exit: "terminal/wait_for_exit",
  terminal_kill: "terminal/kill",
  mcp_message: "mcp/message",
  elicitation_create: "elicitation/create",
  elicitation_complete: "elicitation/complete",
  auth_status_update: "auth/status_update",
} as const satisfies typeof SDK_CLIENT_METHODS;

export const PROTOCOL_METHODS = {
  cancel_request: "$/cancel_request",
} as const satisfies typeof SDK_PROTOCOL_METHODS;

/** Agent methods the SDK no longer lists that agents still serve and the registry's matrix probes. */
export const LEGACY_AGENT_METHODS = {
  session_set_model: "session/set_model",
} as const;
