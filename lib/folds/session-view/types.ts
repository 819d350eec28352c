/** The session view's state and item types. */
import type {
  AvailableCommand,
  ContentBlock,
  Error as AcpError,
  PermissionOption,
  PlanEntry,
  RequestPermissionOutcome,
  SessionConfigOption,
  SessionMode,
  SessionUpdate,
  StopReason,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
  UsageUpdate,
} from "@agentclientprotocol/sdk";
import type { JsonRpcId } from "../../protocol/frame";
import type { TurnUsage as BaseTurnUsage } from "../turn-usage";
import type { SeqList } from "./seq-list";

/** Session id under which a `session/update` or `session/prompt` without a string sessionId is kept. */
export const NO_SESSION = "";

/** The reason of an unknown item whose kind is valid in a schema but has no decoder here. */
export const NOT_DECODED = "not a session update this view decodes";

export interface ItemBase {
  /** Source frames, so the UI can highlight them. `seqs.first` is unique per session: a good React key. */
  seqs: SeqList;
  /** Arrived after the turn it is listed in had ended. */
  outOfTurn?: boolean;
}

export interface MessageItem extends ItemBase {
  type: "user_message" | "agent_message" | "thought";
  /** Content blocks in order; adjacent text chunks are concatenated into one text block. */
  blocks: ContentBlock[];
  messageId?: string;
}

export interface PermissionView {
  requestSeq: number;
  requestId: JsonRpcId;
  options: PermissionOption[];
  /** From the client's answer; absent while the request is pending. */
  outcome?: RequestPermissionOutcome;
  responseSeq?: number;
  error?: AcpError;
}

/** One tool call: `tool_call`, every `tool_call_update` and any permission request for the same id. */
export interface ToolCallItem extends ItemBase {
  type: "tool_call";
  toolCallId: string;
  title?: string;
  name?: string;
  kind?: ToolKind;
  status?: ToolCallStatus;
  content?: ToolCallContent[];
  locations?: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  _meta?: { [key: string]: unknown };
  permission?: PermissionView;
}

/**
 * A plan card: the stable `plan` (entries, each update a full replacement) or an
 * unstable/v2 `plan_update` plan with an id, in one of three forms, until `plan_removed`.
 */
export interface PlanItem extends ItemBase {
  type: "plan";
  entries: PlanEntry[];
  planId?: string;
  /** How the plan was last given; absent for the stable `plan` update (entries). */
  form?: "items" | "markdown" | "file";
  markdown?: string;
  uri?: string;
  /** `plan_removed` named it. */
  removed?: boolean;
}

/** A context compaction (`compaction_update`, `compaction_summary_chunk`): a marker with its summary. */
export interface CompactionItem extends ItemBase {
  type: "compaction";
  compactionId: string;
  /** in_progress, completed, failed, cancelled, or another string. */
  status: string;
  summary: ContentBlock[];
  error?: string;
}

/** An inter-session message (`session_message`, `session_message_chunk`, unstable). */
export interface SessionMessageItem extends ItemBase {
  type: "session_message";
  messageId: string;
  senderSessionId?: string;
  recipientSessionId?: string;
  blocks: ContentBlock[];
}

/** A child session this session started (`subagent_update`, unstable); its items are in its own SessionState. */
export interface SubagentItem extends ItemBase {
  type: "subagent";
  sessionId: string;
  title?: string;
  /** The child's activity (running, idle, requires_action, ...), when reported. */
  state?: string;
  stopReason?: string;
  cwd?: string;
  /** The tool call running in the parent when the child was announced (or named in `_meta.toolCallId`). */
  toolCallId?: string;
}

/** An agent-owned terminal (v2 `terminal_update`, `terminal_output_chunk`); its state is in `terminals`. */
export interface TerminalItem extends ItemBase {
  type: "terminal";
  terminalId: string;
}

/** A v2 `state_update` that did not end a turn (running, requires_action, an idle outside a turn). */
export interface StateItem extends ItemBase {
  type: "state";
  state: string;
  stopReason?: string;
}

export type SessionEventVariant =
  | "available_commands_update"
  | "current_mode_update"
  | "config_option_update"
  | "session_info_update"
  | "usage_update"
  | "notice";
export type SessionEventUpdate = Extract<SessionUpdate, { sessionUpdate: SessionEventVariant }>;

/** A session-state update, shown in place; the session's state is updated too. */
export interface EventItem extends ItemBase {
  type: "event";
  update: SessionEventUpdate;
}

/** An update this view does not decode (unknown variant or malformed), kept verbatim. */
export interface UnknownItem extends ItemBase {
  type: "unknown";
  /** The `sessionUpdate` value, the request method, or "(malformed)". */
  variant: string;
  /**
   * The schema that defines `variant` ("v1", "v1 unstable", "v2", "v2 unstable") when it is a valid
   * kind this view does not render (or a malformed one); absent when no schema knows it.
   */
  validIn?: string;
  update: unknown;
  reason: string;
}

export type ViewItem =
  | MessageItem
  | ToolCallItem
  | PlanItem
  | EventItem
  | CompactionItem
  | SessionMessageItem
  | SubagentItem
  | TerminalItem
  | StateItem
  | UnknownItem;

/** Token usage of one turn (lib/folds/turn-usage.ts), with Gemini's per-model figures and the raw report. */
export interface TurnUsageView extends BaseTurnUsage {
  models?: Array<{ model: string; inputTokens?: number; outputTokens?: number }>;
  raw: unknown;
}

export interface Turn {
  sessionId: string;
  /** The `session/prompt` request. */
  requestId: JsonRpcId;
  seq: number;
  ts: number;
  prompt: ContentBlock[];
  /** In arrival order; the first is the user message built from the prompt. */
  items: ViewItem[];
  ended: boolean;
  endSeq?: number;
  endTs?: number;
  durationMs?: number;
  /** From the prompt to the first agent output (message, thought or tool call), by frame ts. */
  timeToFirstChunkMs?: number;
  /** null when the response had none. Agents may send values outside the spec'd set. */
  stopReason?: StopReason | (string & {}) | null;
  meta?: { [key: string]: unknown };
  usage?: TurnUsageView;
  error?: AcpError;
  /** Ended without error, with no agent message chunk and no stopReason (how Gemini shows an invalid model). */
  emptyResponse?: boolean;
  cancelRequested?: boolean;
  cancelSeq?: number;
  agentMessageChunks: number;
  /** What ended it: the prompt response (v1), or a v2 `state_update` idle. */
  endedBy?: "response" | "state";
  /** The prompt response, when the turn ended otherwise (v2). */
  responseSeq?: number;
}

/** `models` as Gemini returns it from session/new (unstable ACP, not in the SDK's stable types). */
export interface SessionModels {
  currentModelId?: string;
  availableModels?: Array<{ modelId: string; name?: string; description?: string | null; [key: string]: unknown }>;
  [key: string]: unknown;
}

export interface SessionState {
  sessionId: string;
  /** The first frame that mentioned this session. */
  firstSeq: number;
  /** The session/new, load, resume or fork exchange that opened it, when seen. */
  origin?: { method: string; requestSeq: number; responseSeq: number; cwd?: string };
  currentModeId?: string;
  availableModes: SessionMode[];
  configOptions: SessionConfigOption[];
  models?: SessionModels;
  availableCommands: AvailableCommand[];
  info: { title?: string | null; updatedAt?: string | null; _meta?: { [key: string]: unknown } | null };
  usage?: UsageUpdate;
  /** Items that arrived before the first prompt (e.g. available commands, session/load history). */
  preamble: ViewItem[];
  /** What a session/load (or a replaying session/resume) replayed before its response: the session's history. */
  history: ViewItem[];
  /** The session that announced this one with `subagent_update`: this is its subagent. */
  parentSessionId?: string;
  /** The last v2 `state_update` state (running, idle, requires_action, ...). */
  activity?: string;
  turns: Turn[];
  /** Every unknown item of the session (also listed in place), for a quick count. */
  unknown: UnknownItem[];
}

/**
 * A client terminal (terminal/create), as the agent has seen it: the output it
 * last read (terminal/output) and how the command ended. Tool calls show it by id.
 */
export interface TerminalView {
  terminalId: string;
  command?: string;
  args?: string[];
  cwd?: string;
  /** The output the agent last read; absent until it reads some. */
  output?: string;
  truncated: boolean;
  exitStatus?: { exitCode?: number | null; signal?: string | null };
  released?: boolean;
  /** Agent-owned (v2 `terminal_update`): the agent reports it, no client request made it. */
  agentOwned?: boolean;
  /** The client's answers about this terminal. */
  seqs: SeqList;
}

/** A request awaiting its response; kept in the state so that reduceFrame stays pure. */
export interface PendingRequest {
  method: string;
  seq: number;
  ts: number;
  params: unknown;
  sessionId?: string;
  turn?: number;
}

export interface SessionViewState {
  sessions: Record<string, SessionState>;
  /** Session ids in order of appearance. */
  order: string[];
  /** Requests (either way) this view waits to see answered, by their seq (a response's `requestSeq`). */
  pending: Record<number, PendingRequest>;
  /** Client terminals by terminalId. */
  terminals: Record<string, TerminalView>;
  /** From the agent's initialize response: 2 makes `state_update` idle, not the prompt response, end a turn. */
  protocolVersion?: number;
}
