/**
 * Every `session/update` kind (the `sessionUpdate` discriminator) of each schema the installed
 * SDK ships. Kept as data so the browser does not load the schemas; lib/folds/session-view/
 * coverage.test.ts checks it against the schemas, so an SDK upgrade names what changed.
 */
export const UPDATE_KINDS = {
  v1: [
    "user_message_chunk",
    "agent_message_chunk",
    "agent_thought_chunk",
    "tool_call",
    "tool_call_update",
    "plan",
    "available_commands_update",
    "current_mode_update",
    "config_option_update",
    "session_info_update",
    "usage_update",
    "notice",
    "compaction_update",
    "compaction_summary_chunk",
  ],
  "v1 unstable": [
    "user_message_chunk",
    "agent_message_chunk",
    "agent_thought_chunk",
    "tool_call",
    "tool_call_update",
    "plan",
    "plan_update",
    "plan_removed",
    "available_commands_update",
    "current_mode_update",
    "config_option_update",
    "session_info_update",
    "usage_update",
    "notice",
    "compaction_update",
    "compaction_summary_chunk",
    "subagent_update",
    "session_message",
    "session_message_chunk",
  ],
  v2: [
    "user_message_chunk",
    "user_message",
    "agent_message_chunk",
    "agent_message",
    "agent_thought_chunk",
    "agent_thought",
    "state_update",
    "tool_call_content_chunk",
    "tool_call_update",
    "terminal_update",
    "terminal_output_chunk",
    "plan_update",
    "available_commands_update",
    "config_option_update",
    "session_info_update",
    "usage_update",
    "notice",
    "compaction_update",
    "compaction_summary_chunk",
  ],
  "v2 unstable": [
    "user_message_chunk",
    "user_message",
    "agent_message_chunk",
    "agent_message",
    "agent_thought_chunk",
    "agent_thought",
    "state_update",
    "tool_call_content_chunk",
    "tool_call_update",
    "terminal_update",
    "terminal_output_chunk",
    "plan_update",
    "plan_removed",
    "available_commands_update",
    "config_option_update",
    "session_info_update",
    "usage_update",
    "notice",
    "compaction_update",
    "compaction_summary_chunk",
    "subagent_update",
    "session_message",
    "session_message_chunk",
  ],
} as const satisfies Record<string, readonly string[]>;

export type SchemaVariant = keyof typeof UPDATE_KINDS;

/** The first schema (stable before unstable, v1 before v2) that defines this update kind; undefined for none. */
export function schemaOfUpdateKind(kind: string): SchemaVariant | undefined {
  for (const v of Object.keys(UPDATE_KINDS) as SchemaVariant[]) {
    if ((UPDATE_KINDS[v] as readonly string[]).includes(kind)) return v;
  }
  return undefined;
}
