/**
 * The ACP test kit's v1 requirements (acp-tck `src/tck/v1/requirements.py`) that the probe
 * took up last (issue #36), so that every kit requirement has a probe verdict: the kit's ids
 * and tiers; the texts and citations the playground's (docs page and section, or a schema
 * definition, in the spec repository).
 */
import type { Requirement } from "../../contracts/requirements";

const V1 = "docs/protocol/v1";

/** A v1 stable requirement. */
export const v1 = (
  id: string,
  tier: Requirement["tier"],
  title: string,
  citation: string,
  extra: Partial<Requirement> = {},
): Requirement => ({ id, tier, title, citation, variant: "v1", ...extra });

/** Their ids, named once so steps cannot misspell them. */
export const KIT_R = {
  utf8: "ACP-TRANSPORT-002",
  schema: "ACP-SCHEMA-001",
  promptUpdates: "ACP-PROMPT-002",
  resourceLink: "ACP-PROMPT-003",
  image: "ACP-PROMPTCAP-001",
  audio: "ACP-PROMPTCAP-002",
  embedded: "ACP-PROMPTCAP-003",
  additionalDirs: "ACP-ADDDIRS-001",
  listUnmatched: "ACP-LIST-002",
  deleteUnknown: "ACP-DELETE-002",
  closeInFlight: "ACP-CLOSE-002",
  loadObject: "ACP-LOAD-003",
  authIdsUnique: "ACP-AUTH-001",
  authTerminal: "ACP-AUTH-002",
  authThenSession: "ACP-AUTH-003",
  noAuthNoGate: "ACP-AUTH-005",
  meta: "ACP-META-001",
  errorMessages: "ACP-ERROR-001",
  shutdown: "ACP-SHUTDOWN-001",
  stderr: "ACP-STDERR-001",
  invalidRequest: "ACP-INFO-INVALIDREQ-001",
  unknownSession: "ACP-INFO-UNKNOWNSESSION-001",
  survivesError: "ACP-JSONRPC-005",
} as const;

const R = KIT_R;

/** Where a prompt capability is advertised. */
const PROMPT_CAP = "agentCapabilities.promptCapabilities";

export const KIT_REQUIREMENTS: readonly Requirement[] = [
  v1(
    R.utf8,
    "MANDATORY",
    "Every line the agent writes to stdout is valid UTF-8.",
    `${V1}/transports.mdx#stdio (messages are UTF-8 encoded)`,
  ),
  v1(
    R.schema,
    "MANDATORY",
    "Every message the agent sends in initialize, session/new and a first prompt turn validates against the schema.",
    "schema: the definition of each message's method (stable, else unstable)",
  ),
  v1(
    R.promptUpdates,
    "MANDATORY",
    "Every session/update of a prompt turn validates against the schema and names the session prompted.",
    `${V1}/prompt-turn.mdx#3-agent-reports-output; schema: SessionNotification`,
  ),
  v1(
    R.resourceLink,
    "ADVISORY",
    "A prompt with a resource_link block beside text is accepted.",
    `${V1}/content.mdx#resource-link (initialization.mdx#prompt-capabilities lists it as baseline, content.mdx only text)`,
    { note: "ADVISORY as in the kit: the two pages disagree on whether resource_link is baseline." },
  ),
  v1(
    R.image,
    "CAPABILITY",
    "With promptCapabilities.image, a prompt with an image block beside text ends with a defined stopReason.",
    `${V1}/initialization.mdx#prompt-capabilities; schema: ImageContent`,
    { capability: `${PROMPT_CAP}.image` },
  ),
  v1(
    R.audio,
    "CAPABILITY",
    "With promptCapabilities.audio, a prompt with an audio block beside text ends with a defined stopReason.",
    `${V1}/initialization.mdx#prompt-capabilities; schema: AudioContent`,
    { capability: `${PROMPT_CAP}.audio` },
  ),
  v1(
    R.embedded,
    "CAPABILITY",
    "With promptCapabilities.embeddedContext, a prompt with an embedded resource beside text ends with a defined stopReason.",
    `${V1}/initialization.mdx#prompt-capabilities; schema: EmbeddedResource`,
    { capability: `${PROMPT_CAP}.embeddedContext` },
  ),
  v1(
    R.additionalDirs,
    "CAPABILITY",
    "session/new with an absolute additionalDirectories entry is accepted.",
    `${V1}/session-setup.mdx#additional-workspace-roots; schema: NewSessionRequest`,
    { capability: "agentCapabilities.sessionCapabilities.additionalDirectories" },
  ),
  v1(
    R.listUnmatched,
    "CAPABILITY",
    "session/list filtered by a cwd no session uses answers sessions: [] (not null, not an error).",
    `${V1}/session-list.mdx#listing-sessions; schema: ListSessionsResponse`,
    { capability: "agentCapabilities.sessionCapabilities.list" },
  ),
  v1(
    R.deleteUnknown,
    "ADVISORY",
    "session/delete of a sessionId never created succeeds silently.",
    `${V1}/session-delete.mdx (SHOULD succeed for an unknown or already deleted session)`,
    { capability: "agentCapabilities.sessionCapabilities.delete" },
  ),
  v1(
    R.closeInFlight,
    "CAPABILITY",
    "session/close during a turn cancels it: session/prompt answers stopReason cancelled.",
    `${V1}/session-setup.mdx#closing-a-session (cancels ongoing work as if session/cancel); prompt-turn.mdx#cancellation`,
    { capability: "agentCapabilities.sessionCapabilities.close" },
  ),
  v1(
    R.loadObject,
    "ADVISORY",
    "session/load of a session (never prompted) answers an object, not null.",
    `${V1}/session-setup.mdx#loading-sessions; schema: LoadSessionResponse`,
    { capability: "agentCapabilities.loadSession" },
  ),
  v1(
    R.authIdsUnique,
    "ADVISORY",
    "The authMethods initialize lists have distinct ids.",
    "schema: AuthMethod.id (Unique identifier)",
  ),
  v1(
    R.authTerminal,
    "MANDATORY",
    "No terminal auth method is listed unless the client advertised auth.terminal.",
    `${V1}/authentication.mdx (MUST NOT include type terminal unless the client advertised it)`,
  ),
  v1(
    R.authThenSession,
    "CAPABILITY",
    "After authenticate with the chosen method succeeds, session/new is not refused -32000.",
    `${V1}/authentication.mdx; schema: AuthenticateResponse`,
    { capability: "inferred:authMethods", note: "Run only with --auth-method, as the kit's --auth-method." },
  ),
  v1(
    R.noAuthNoGate,
    "ADVISORY",
    "An agent that lists no authMethods does not refuse session/new with -32000.",
    "schema: InitializeResponse.authMethods (optional; -32000 has no remedy without one)",
  ),
  v1(
    R.meta,
    "ADVISORY",
    "A prompt carrying _meta (a traceparent) is accepted and ends with a defined stopReason.",
    `${V1}/extensibility.mdx#the-_meta-field`,
  ),
  v1(
    R.errorMessages,
    "ADVISORY",
    "An error's message is non-empty and one line (an unknown method, session/new without cwd).",
    `${V1}/overview.mdx#error-handling; schema: Error.message (a short description)`,
  ),
  v1(
    R.shutdown,
    "ADVISORY",
    "Once its stdin is closed, the agent exits on its own within 2 s.",
    `${V1}/transports.mdx#stdio (the client closes stdin, then may terminate the process)`,
  ),
  v1(
    R.stderr,
    "INFORMATIONAL",
    "How much the agent writes to stderr (never judged).",
    `${V1}/transports.mdx#stdio (MAY write UTF-8 strings to stderr for logging)`,
  ),
  v1(
    R.invalidRequest,
    "INFORMATIONAL",
    'What the agent does with a JSON line that is not JSON-RPC ({"foo":"bar"}), and whether the connection stays usable.',
    "JSON-RPC 2.0 §5.1 (-32600 Invalid Request); ACP v1 requires no answer to a line that is not a request",
  ),
  v1(
    R.unknownSession,
    "INFORMATIONAL",
    "How the agent answers session/prompt for a sessionId it never created.",
    `${V1}/prompt-turn.mdx (silent on the error for an unknown session)`,
  ),
  v1(
    R.survivesError,
    "ADVISORY",
    "After a request it refuses (an unknown method without params), the next request still succeeds.",
    `${V1}/overview.mdx#error-handling; ${V1}/extensibility.mdx#custom-requests`,
  ),
];
