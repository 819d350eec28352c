/**
 * What the probe checks, as requirements (lib/contracts/requirements.ts): the
 * ACP test kit's id where the kit has the same requirement, `PG-...` where the
 * playground goes further or reads the spec differently (the note says why).
 * Citations are to the spec repository (agentclientprotocol/agent-client-protocol):
 * a docs page and section, or a schema definition.
 */
import type { Requirement } from "../../contracts/requirements";
import { AGENT_METHODS } from "../../protocol/methods";
import { APP_SERVER_REQUIREMENTS } from "../protocols/codex-app-server/probe-requirements";
import { KIT_R, KIT_REQUIREMENTS, v1 } from "./kit-requirements";

const V1 = "docs/protocol/v1";

/** Requirement ids, named once so steps cannot misspell them. */
export const R = {
  transportLines: "ACP-TRANSPORT-001",
  idEcho: "ACP-JSONRPC-001",
  responseShape: "ACP-JSONRPC-002",
  notificationSilence: "ACP-JSONRPC-003",
  unknownMethod: "ACP-JSONRPC-004",
  everyRequestAnswered: "PG-JSONRPC-001",
  extRequest: "ACP-EXT-001",
  initialize: "ACP-INIT-001",
  initVersion1: "ACP-INIT-002",
  initUnsupported: "ACP-INIT-003",
  agentInfo: "ACP-INIT-004",
  sessionNew: "ACP-SESSION-001",
  sessionIdsDistinct: "ACP-SESSION-002",
  prompt: "ACP-PROMPT-001",
  toolStatus: "PG-TOOL-001",
  cancel: "ACP-CANCEL-001",
  cancelNoLateUpdates: "PG-CANCEL-002",
  clientFs: "ACP-CLIENTCAP-001",
  clientTerminal: "ACP-CLIENTCAP-002",
  clientElicitation: "ACP-CLIENTCAP-003",
  load: "ACP-LOAD-001",
  loadReplayFirst: "PG-LOAD-002",
  resume: "ACP-RESUME-001",
  resumeNoReplay: "ACP-RESUME-002",
  list: "ACP-LIST-001",
  modesValid: "ACP-MODES-001",
  modeSwitch: "ACP-MODES-002",
  configValid: "ACP-CONFIG-001",
  configSwitch: "ACP-CONFIG-002",
  configBoolean: "ACP-CONFIG-003",
  close: "ACP-CLOSE-001",
  delete: "ACP-DELETE-001",
  logout: "ACP-AUTH-004",
  rootFields: "ACP-SCHEMA-002",
  parseError: "ACP-INFO-PARSE-001",
  authUnknown: "PG-INFO-AUTH-001",
  setModel: "PG-UNSTABLE-SET-MODEL",
  ...KIT_R,
} as const;

/** v1 stable: these decide the verdict. */
export const STABLE_REQUIREMENTS: readonly Requirement[] = [
  v1(
    R.transportLines,
    "MANDATORY",
    "Every line the agent writes to stdout is one JSON-RPC message.",
    `${V1}/transports.mdx#stdio (MUST NOT write anything that is not a valid ACP message)`,
  ),
  v1(
    R.idEcho,
    "MANDATORY",
    "A response's id echoes the request's id exactly, string ids included.",
    "JSON-RPC 2.0 §5 (id); schema: RequestId",
  ),
  v1(
    R.responseShape,
    "MANDATORY",
    "A response carries exactly one of result and error; an error has an integer code and a string message.",
    `${V1}/overview.mdx#error-handling; schema: Error`,
  ),
  v1(
    R.notificationSilence,
    "MANDATORY",
    "A notification never gets a response (`initialized`, an unknown notification, session/cancel).",
    `JSON-RPC 2.0 §4.1; ${V1}/extensibility.mdx#custom-notifications (SHOULD ignore unrecognized notifications)`,
  ),
  v1(
    R.unknownMethod,
    "ADVISORY",
    "An unknown method is answered -32601 Method not found.",
    `${V1}/extensibility.mdx#custom-requests (SHOULD respond with -32601)`,
  ),
  v1(
    R.everyRequestAnswered,
    "MANDATORY",
    "Every request gets a response, also with two requests in flight at once.",
    `JSON-RPC 2.0 §5 (the Server MUST reply with a Response); ${V1}/overview.mdx#communication-model`,
    { note: "The kit has no concurrency check; JSON-RPC lets a client send requests without waiting." },
  ),
  v1(
    R.extRequest,
    "MANDATORY",
    "A request to an unknown `_`-prefixed custom method gets a response (any result or error).",
    `${V1}/extensibility.mdx#custom-requests (MUST respond accordingly with the provided id)`,
  ),
  v1(
    R.initialize,
    "MANDATORY",
    "initialize succeeds with an integer protocolVersion.",
    `${V1}/initialization.mdx#initialization (MUST respond with the chosen protocol version); schema: InitializeResponse`,
  ),
  v1(
    R.initVersion1,
    "MANDATORY",
    "Asked for protocol version 1, the agent answers 1.",
    `${V1}/initialization.mdx#version-negotiation (MUST respond with the same version)`,
  ),
  v1(
    R.initUnsupported,
    "MANDATORY",
    "Asked for an unsupported version (999), the agent answers with a result naming the latest version it supports, not an error or an echo.",
    `${V1}/initialization.mdx#version-negotiation (MUST respond with the latest version it supports)`,
    { note: "The kit asks for 65535; any version the agent cannot support tests the same rule." },
  ),
  v1(
    R.agentInfo,
    "ADVISORY",
    "initialize's result carries agentInfo with a name and a version.",
    `${V1}/initialization.mdx#implementation-information (SHOULD provide agentInfo)`,
  ),
  v1(
    R.sessionNew,
    "MANDATORY",
    "session/new with an absolute cwd and no MCP servers answers a sessionId.",
    `${V1}/session-setup.mdx#creating-a-session (MUST respond with a unique Session ID); schema: NewSessionResponse`,
  ),
  v1(
    R.sessionIdsDistinct,
    "MANDATORY",
    "Each session/new on a connection answers a different sessionId.",
    `${V1}/session-setup.mdx#creating-a-session (unique Session ID)`,
  ),
  v1(
    R.prompt,
    "MANDATORY",
    "A session/prompt turn ends with a result whose stopReason is a defined StopReason.",
    `${V1}/prompt-turn.mdx#4-check-for-completion (MUST respond with a StopReason); schema: StopReason`,
  ),
  v1(
    R.toolStatus,
    "ADVISORY",
    "A tool call the agent runs ends completed or failed before the turn's response.",
    `${V1}/prompt-turn.mdx#5-tool-invocation-and-status-reporting (SHOULD report the tool's status)`,
    { note: "The kit does not drive a tool call." },
  ),
  v1(
    R.cancel,
    "MANDATORY",
    "After session/cancel during a turn, session/prompt answers stopReason cancelled, not an error.",
    `${V1}/prompt-turn.mdx#cancellation (MUST respond with the cancelled stop reason)`,
  ),
  v1(
    R.cancelNoLateUpdates,
    "MANDATORY",
    "No content or tool call update for a cancelled turn arrives after its session/prompt response.",
    `${V1}/prompt-turn.mdx#cancellation (MAY send content or tool call updates after session/cancel, but MUST do so before responding)`,
    {
      kit: "ACP-CANCEL-002",
      note: "The kit's ACP-CANCEL-002 counts every session/update kind; the spec's rule is about content and tool call updates, so a later available_commands_update is not a failure here.",
    },
  ),
  v1(
    R.clientFs,
    "MANDATORY",
    "The agent calls no fs/* method the client did not advertise.",
    `${V1}/file-system.mdx#checking-support (MUST check the client capability first)`,
  ),
  v1(
    R.clientTerminal,
    "MANDATORY",
    "The agent calls no terminal/* method unless the client advertised terminal.",
    `${V1}/terminals.mdx#checking-support (MUST check the client capability first)`,
  ),
  v1(
    R.clientElicitation,
    "MANDATORY",
    "The agent calls no elicitation/create unless the client advertised elicitation.",
    `${V1}/elicitation.mdx#checking-support`,
  ),
  v1(
    R.load,
    "CAPABILITY",
    "session/load of the session the probe just used succeeds.",
    `${V1}/session-setup.mdx#loading-sessions (MUST respond once the conversation is replayed); schema: LoadSessionResponse`,
    { capability: "agentCapabilities.loadSession" },
  ),
  v1(
    R.loadReplayFirst,
    "CAPABILITY",
    "session/load replays the conversation (message, thought, tool call and plan updates) before its response, none after.",
    `${V1}/session-setup.mdx#loading-a-session (MUST replay the entire conversation; when all entries have been streamed, MUST respond)`,
    {
      capability: "agentCapabilities.loadSession",
      kit: "ACP-LOAD-002",
      note: "The kit's ACP-LOAD-002 counts every session/update after the response; the spec requires only the conversation before it, so an available_commands_update after the response (Claude's adapter) is fine.",
    },
  ),
  v1(
    R.resume,
    "CAPABILITY",
    "session/resume of the probe's session succeeds.",
    `${V1}/session-setup.mdx#resuming-sessions; schema: ResumeSessionResponse`,
    { capability: "agentCapabilities.sessionCapabilities.resume" },
  ),
  v1(
    R.resumeNoReplay,
    "CAPABILITY",
    "session/resume replays no conversation history before its response.",
    `${V1}/session-setup.mdx#resuming-a-session (MUST NOT replay the conversation history before responding)`,
    { capability: "agentCapabilities.sessionCapabilities.resume" },
  ),
  v1(
    R.list,
    "CAPABILITY",
    "session/list answers a sessions array.",
    `${V1}/session-list.mdx#listing-sessions (MUST respond with a list of sessions); schema: ListSessionsResponse`,
    { capability: "agentCapabilities.sessionCapabilities.list" },
  ),
  v1(
    R.modesValid,
    "CAPABILITY",
    "The modes session/new returns name a currentModeId among availableModes.",
    `${V1}/session-modes.mdx#initial-state; schema: SessionModeState`,
    { capability: "inferred:modes" },
  ),
  v1(
    R.modeSwitch,
    "CAPABILITY",
    "session/set_mode to a different advertised mode succeeds, and so does switching back.",
    `${V1}/session-modes.mdx#from-the-client; schema: SetSessionModeRequest`,
    { capability: "inferred:modes" },
  ),
  v1(
    R.configValid,
    "CAPABILITY",
    "Each config option's currentValue is one of its values (a boolean for a boolean option).",
    `${V1}/session-config-options.mdx#initial-state; schema: SessionConfigOption`,
    { capability: "inferred:configOptions" },
  ),
  v1(
    R.configSwitch,
    "CAPABILITY",
    "session/set_config_option to a different value answers the complete list with that value applied; switching back succeeds.",
    `${V1}/session-config-options.mdx#from-the-client (MUST respond with the complete list of all configuration options)`,
    { capability: "inferred:configOptions" },
  ),
  v1(
    R.configBoolean,
    "MANDATORY",
    "No boolean config option unless the client advertised session.configOptions.boolean.",
    `${V1}/session-config-options.mdx#boolean-config-options (MUST NOT include type boolean unless advertised)`,
  ),
  v1(
    R.close,
    "CAPABILITY",
    "session/close of an idle session succeeds.",
    `${V1}/session-setup.mdx#closing-a-session; schema: CloseSessionResponse`,
    { capability: "agentCapabilities.sessionCapabilities.close" },
  ),
  v1(
    R.delete,
    "CAPABILITY",
    "session/delete of a session created on this connection succeeds.",
    `${V1}/session-delete.mdx#deleting-a-session; schema: DeleteSessionResponse`,
    { capability: "agentCapabilities.sessionCapabilities.delete" },
  ),
  v1(
    R.logout,
    "CAPABILITY",
    "logout succeeds (only run with --include-logout: it may sign the user out).",
    `${V1}/authentication.mdx#logging-out; schema: LogoutResponse`,
    { capability: "agentCapabilities.auth.logout" },
  ),
  v1(
    R.rootFields,
    "ADVISORY",
    "No result carries a root field its schema does not define (custom data goes in _meta).",
    `${V1}/extensibility.mdx#the-_meta-field (MUST NOT add custom fields at the root of a type)`,
    {
      note: "A MUST in the spec; ADVISORY as in the kit, because the schema does not close its objects and a new field may be a newer revision's.",
    },
  ),
  v1(
    R.parseError,
    "INFORMATIONAL",
    "What the agent does with a malformed line (a -32700 answer or silence), and whether the connection stays usable.",
    "schema: ErrorCode (lists -32700 Parse error); docs/protocol/v1/overview.mdx#error-handling (requires no answer to a line that is not a request)",
    {
      note: "ACP v1 lists -32700 but does not require an answer; the reference SDKs disagree (Rust answers, Python stays silent).",
    },
  ),
  v1(
    R.authUnknown,
    "INFORMATIONAL",
    "How the agent answers authenticate with a methodId it never advertised.",
    `${V1}/authentication.mdx (silent on the error for an unknown method)`,
  ),
  ...KIT_REQUIREMENTS,
];

/** Unstable methods and the capability that advertises each (unstable schema). */
export const UNSTABLE_CAPABILITIES: Readonly<Record<string, string | undefined>> = {
  [AGENT_METHODS.session_fork]: "agentCapabilities.sessionCapabilities.fork",
  [AGENT_METHODS.session_archive]: "agentCapabilities.sessionCapabilities.archive",
  [AGENT_METHODS.session_unarchive]: "agentCapabilities.sessionCapabilities.archive",
  [AGENT_METHODS.session_status]: "agentCapabilities.sessionCapabilities.status",
  [AGENT_METHODS.session_set_title]: "agentCapabilities.sessionCapabilities.title",
  [AGENT_METHODS.providers_list]: "agentCapabilities.providers",
  [AGENT_METHODS.providers_set]: "agentCapabilities.providers",
  [AGENT_METHODS.providers_disable]: "agentCapabilities.providers",
  [AGENT_METHODS.auth_status]: "agentCapabilities.auth.status",
  [AGENT_METHODS.mcp_message]: "agentCapabilities.mcpCapabilities.acp",
};

/** `PG-UNSTABLE-SESSION-FORK` */
export const unstableId = (method: string) => `PG-UNSTABLE-${method.replace(/[^a-z0-9]+/gi, "-").toUpperCase()}`;

/** v1 unstable: reported apart, never decide the verdict (the methods may still change). */
export const UNSTABLE_REQUIREMENTS: readonly Requirement[] = [
  ...Object.entries(UNSTABLE_CAPABILITIES).map(([method, capability]): Requirement => ({
    id: unstableId(method),
    tier: capability ? "CAPABILITY" : "INFORMATIONAL",
    title: `${method} succeeds when advertised (params built from the unstable schema).`,
    citation: `schema.unstable.json: the request with x-method ${method}`,
    variant: "v1 unstable",
    ...(capability ? { capability } : {}),
  })),
  {
    id: R.setModel,
    tier: "INFORMATIONAL",
    title: "session/set_model to a different model and back (removed: no schema defines it).",
    citation:
      "removed from the spec: no schema of @agentclientprotocol/sdk 2.4 defines session/set_model; models are a config option (category model)",
    variant: "v1 unstable",
    capability: "inferred:models",
    note: "Agents still serve it and the registry's matrix still counts it, so the probe records what they do, as an observation.",
  },
];

/** Every requirement a probe checks, of either protocol. */
export const PROBE_REQUIREMENTS: readonly Requirement[] = [
  ...STABLE_REQUIREMENTS,
  ...UNSTABLE_REQUIREMENTS,
  ...APP_SERVER_REQUIREMENTS,
];
