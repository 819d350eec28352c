/**
 * The ACP test kit's v2 requirements (acp-tck `src/tck/v2/requirements.py`) that the v2 probe
 * checks: the kit's ids, tiers and capability gates; the citations the kit's, in the spec
 * repository (docs/protocol/v2/draft/…, schema/v2/schema.unstable.json). The kit has no
 * ACP-PATCH-202. Every session requirement is gated on `capabilities.session`, as in the kit:
 * in v2 only `initialize` is unconditional.
 */
import type { Requirement } from "../../contracts/requirements";

/** What gates the session surface in v2 (an object marker, not v1's booleans). */
export const SESSION_CAPABILITY = "capabilities.session";

const D = "docs/protocol/v2/draft";
const S = "schema/v2/schema.unstable.json#/$defs";

const req = (
  id: string,
  tier: Requirement["tier"],
  title: string,
  citation: string,
  gated = tier === "CAPABILITY",
): Requirement => ({ id, tier, title, citation, variant: "v2", ...(gated ? { capability: SESSION_CAPABILITY } : {}) });

export const V2_REQUIREMENTS: readonly Requirement[] = [
  req(
    "ACP-STATE-201",
    "CAPABILITY",
    "A turn-ending idle state_update (with a stopReason) is preceded in the same turn by state running.",
    `${D}/prompt-lifecycle.mdx:192,462`,
  ),
  req(
    "ACP-STATE-202",
    "CAPABILITY",
    "After a turn showed state running, an idle state_update for the session arrives within the turn's time.",
    `${D}/prompt-lifecycle.mdx:462`,
  ),
  req(
    "ACP-STATE-203",
    "CAPABILITY",
    "The idle that ends an observed running turn carries a stopReason that is defined or begins with `_`.",
    `${D}/prompt-lifecycle.mdx:462,578-595; ${S}/IdleStateUpdate; ${S}/StopReason`,
  ),
  req(
    "ACP-PERM-201",
    "CAPABILITY",
    "A session/request_permission carries sessionId, a non-empty title and options (optionId, name, kind); answered, the turn still reaches idle.",
    `${S}/RequestPermissionRequest; ${S}/PermissionOption; ${D}/tool-calls.mdx:196,235,255`,
  ),
  req(
    "ACP-CANCEL-201",
    "CAPABILITY",
    "After session/cancel of a running turn, the agent sends state_update idle with stopReason cancelled.",
    `${D}/prompt-lifecycle.mdx:633,640`,
  ),
  req(
    "ACP-CANCEL-202",
    "CAPABILITY",
    "After the cancelled idle, no further state_update for the session arrives (within a quiet period) unless prompted again.",
    `${D}/prompt-lifecycle.mdx:644`,
  ),
  req(
    "ACP-CANCEL-203",
    "CAPABILITY",
    "A cancel never ends the turn with a JSON-RPC error on session/prompt, nor with a non-cancelled defined stopReason.",
    `${D}/prompt-lifecycle.mdx:635-642`,
  ),
  req(
    "ACP-CANCEL-204",
    "INFORMATIONAL",
    "On session/cancel the agent stops model requests and tool calls as soon as possible (not observable on the wire).",
    `${D}/prompt-lifecycle.mdx:631`,
  ),
  req(
    "ACP-CANCEL-205",
    "CAPABILITY",
    "session/cancel is a notification: the agent sends no response (result or error) for it.",
    `${S}/CancelSessionNotification; ${D}/overview.mdx:195`,
  ),
  req(
    "ACP-CANCEL-206",
    "CAPABILITY",
    "A session/cancel that also carries `_meta` is honoured as a bare one (stopReason cancelled).",
    `${S}/CancelSessionNotification; ${D}/prompt-lifecycle.mdx:617-625`,
  ),
  req(
    "ACP-CANCEL-207",
    "CAPABILITY",
    "A cancelled turn's stopReason is cancelled, never another non-`_` value such as aborted.",
    `${D}/prompt-lifecycle.mdx:595; ${S}/StopReason`,
  ),
  req(
    "ACP-CANCEL-208",
    "CAPABILITY",
    "session/close of a session with a running turn cancels it first (the same idle, stopReason cancelled).",
    `${D}/session-setup.mdx:265-267`,
  ),
  req(
    "ACP-BATCH-201",
    "MANDATORY",
    "An empty array gets one Invalid Request (-32600) response object with id null, never an array.",
    `${D}/transports.mdx:57-59`,
  ),
  req(
    "ACP-BATCH-202",
    "MANDATORY",
    "A batch of notifications only gets no reply at all, not even an empty array.",
    `${D}/transports.mdx:66-67,70-72`,
  ),
  req(
    "ACP-BATCH-203",
    "ADVISORY",
    "A batch of invalid entries gets one -32600 (id null) per entry, and the connection still serves a request after it.",
    `${D}/transports.mdx:73-75`,
  ),
  req(
    "ACP-BATCH-204",
    "ADVISORY",
    "A batch with requests is answered with one array of their responses.",
    `${D}/transports.mdx:62-65`,
  ),
  req(
    "ACP-BATCH-205",
    "ADVISORY",
    "The responses in a batch reply are matched to the requests by id (in any order).",
    `${D}/transports.mdx:68-69`,
  ),
  req(
    "ACP-BATCH-206",
    "INFORMATIONAL",
    "The receiver may process batch entries concurrently, in any order (not observable).",
    `${D}/transports.mdx:60-61`,
  ),
  req(
    "ACP-BATCH-207",
    "INFORMATIONAL",
    "An agent may send a batch of its own (a client cannot make it).",
    `${D}/transports.mdx:47-51`,
  ),
  req(
    "ACP-BATCH-208",
    "INFORMATIONAL",
    "Lifecycle messages should not be batched (a property of the sender, not of the agent as receiver).",
    `${D}/transports.mdx:77-80`,
  ),
  req(
    "ACP-RESUME-201",
    "CAPABILITY",
    "session/resume (no replayFrom) of a session succeeds with an object result; -32601 fails.",
    `${D}/session-setup.mdx:85-86; ${S}/ResumeSessionRequest; ${S}/ResumeSessionResponse`,
  ),
  req(
    "ACP-RESUME-202",
    "CAPABILITY",
    "With replayFrom {type: start}, every replayed session/update comes before the resume response, none after (notices aside).",
    `${D}/session-setup.mdx:146-147,155-158,227-228`,
  ),
  req(
    "ACP-RESUME-203",
    "CAPABILITY",
    "With replayFrom omitted, no conversation history is replayed before the response.",
    `${D}/session-setup.mdx:120-121`,
  ),
  req(
    "ACP-RESUME-204",
    "CAPABILITY",
    "A replayed user message keeps the messageId its session/prompt response returned.",
    `${D}/session-setup.mdx:205-207; ${S}/PromptResponse`,
  ),
  req(
    "ACP-RESUME-205",
    "CAPABILITY",
    "In a replay, a *_chunk for a messageId follows the whole-message update (content: []) for that id.",
    `${D}/session-setup.mdx:214-218`,
  ),
  req(
    "ACP-PATCH-201",
    "CAPABILITY",
    "Every message update or chunk (user, agent, thought) carries a non-empty messageId.",
    `${D}/prompt-lifecycle.mdx:277; ${S}/ContentChunk; ${S}/AgentMessage`,
  ),
  req(
    "ACP-PATCH-203",
    "CAPABILITY",
    "Two session/prompts on one session get two distinct messageIds.",
    `${D}/prompt-lifecycle.mdx:184`,
  ),
  req(
    "ACP-PATCH-204",
    "CAPABILITY",
    "Every tool_call_update carries a non-empty toolCallId; every tool_call_content_chunk a toolCallId and content.",
    `${S}/ToolCallUpdate; ${S}/ToolCallContentChunk`,
  ),
  req(
    "ACP-PATCH-205",
    "CAPABILITY",
    "Every plan_update.plan carries a non-empty planId.",
    `${D}/agent-plan.mdx:137; ${S}/PlanUpdateContent`,
  ),
  req(
    "ACP-PATCH-206",
    "CAPABILITY",
    "A terminal_update.cwd is absolute, and one terminalId never shows two cwds.",
    `${D}/tool-calls.mdx:407-413,441-442`,
  ),
  req(
    "ACP-PATCH-207",
    "CAPABILITY",
    "terminal_output_chunk.data and terminal_update.output.data each decode as standalone base64.",
    `${D}/tool-calls.mdx:443-448,468-476`,
  ),
  req(
    "ACP-PATCH-208",
    "ADVISORY",
    "The first tool_call_update of a toolCallId has a non-empty title; its name, once set, never changes.",
    `${D}/tool-calls.mdx:42-55`,
  ),
  req(
    "ACP-PATCH-209",
    "ADVISORY",
    "While waiting on a permission answer the agent reports state requires_action, and running again after.",
    `${D}/prompt-lifecycle.mdx:485`,
  ),
  req(
    "ACP-ENUM-201",
    "CAPABILITY",
    "tool_call_update kind and status, plan entries' priority and status: a defined value or one beginning with `_`.",
    `${D}/extensibility.mdx:111-118; ${D}/tool-calls.mdx:77,375; ${D}/agent-plan.mdx:154,166`,
  ),
  req(
    "ACP-ENUM-202",
    "ADVISORY",
    "sessionUpdate kinds, state_update.state and tool-call content types: a defined value or one beginning with `_`.",
    `${D}/extensibility.mdx:117,120; ${S}/SessionUpdate`,
  ),
  req(
    "ACP-ENUM-203",
    "ADVISORY",
    "A `_` permission outcome from the client is tolerated: no -32602, and the turn still reaches idle.",
    `${D}/extensibility.mdx:115,122`,
  ),
];

/** The kit's open-enum value sets (acp-tck `src/tck/v2/protocol.py`, checked there against the schema). */
export const V2_ENUMS = {
  stopReason: ["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"],
  toolKind: ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"],
  toolCallStatus: ["pending", "in_progress", "completed", "failed", "cancelled"],
  planEntryPriority: ["high", "medium", "low"],
  planEntryStatus: ["pending", "in_progress", "completed", "cancelled"],
  sessionUpdate: [
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
    "plan_removed",
    "compaction_update",
    "compaction_summary_chunk",
  ],
  state: ["running", "idle", "requires_action"],
  toolCallContent: ["content", "diff", "terminal"],
} as const satisfies Record<string, readonly string[]>;

/** A value at an open-enum site: one of the defined ones, or an `_` extension. */
export const openEnumOk = (value: unknown, defined: readonly string[]): boolean =>
  typeof value === "string" && (defined.includes(value) || value.startsWith("_"));
