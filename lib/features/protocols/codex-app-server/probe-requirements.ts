/**
 * What the probe checks of an agent that speaks Codex's app-server protocol (docs/app-server.md):
 * the requirements that make sense there (handshake, thread and turn lifecycle, interrupt, an
 * approval round trip, unknown methods, malformed input). The app-server has no spec with MUSTs
 * and no test kit: ids are the playground's, `ASP-<AREA>-<NNN>`, citations the protocol's README
 * and generated schema in openai/codex (codex-rs/app-server), or JSON-RPC 2.0 where it decides.
 */
import type { Requirement } from "../../../contracts/requirements";

const README = "codex-rs/app-server/README.md";

/** Requirement ids, named once so steps cannot misspell them. */
export const ASP = {
  transportLines: "ASP-TRANSPORT-001",
  initialize: "ASP-INIT-001",
  beforeInitialize: "ASP-INIT-002",
  threadStart: "ASP-THREAD-001",
  turn: "ASP-TURN-001",
  interrupt: "ASP-TURN-002",
  approval: "ASP-APPROVAL-001",
  unknownMethod: "ASP-RPC-001",
  malformed: "ASP-RPC-002",
  idEcho: "ASP-RPC-003",
} as const;

const asp = (id: string, tier: Requirement["tier"], title: string, citation: string, note?: string): Requirement => ({
  id,
  tier,
  title,
  citation,
  variant: "app-server",
  ...(note ? { note } : {}),
});

export const APP_SERVER_REQUIREMENTS: readonly Requirement[] = [
  asp(
    ASP.transportLines,
    "MANDATORY",
    'Every line the server writes to stdout is one JSON-RPC message (the "jsonrpc" member left out).',
    `${README}#protocol (JSON-RPC 2.0 over stdio, one message per line, without the "jsonrpc" header)`,
  ),
  asp(
    ASP.initialize,
    "MANDATORY",
    "initialize succeeds with a result naming the server (userAgent).",
    `${README}#initialization; schema: InitializeResponse`,
  ),
  asp(
    ASP.beforeInitialize,
    "MANDATORY",
    "A request before initialize is refused with an error.",
    `${README}#initialization (requests before initialize are rejected)`,
  ),
  asp(
    ASP.threadStart,
    "MANDATORY",
    "thread/start answers with a thread (its id), and a thread/started notification names the same thread.",
    `${README}#threads; schema: ThreadStartResponse, ThreadStartedNotification`,
  ),
  asp(
    ASP.turn,
    "MANDATORY",
    "turn/start answers at once with an inProgress turn; turn/started and then turn/completed (status completed) follow for that turn.",
    `${README}#turns; schema: TurnStartResponse, TurnStartedNotification, TurnCompletedNotification`,
  ),
  asp(
    ASP.interrupt,
    "MANDATORY",
    "turn/interrupt of a running turn is answered, and the turn ends with turn/completed, status interrupted.",
    `${README}#turns (turn/interrupt); schema: TurnInterruptResponse, TurnStatus`,
    "Judged only when the turn is still running when the interrupt arrives (after its turn/started); a turn that ends first is skipped.",
  ),
  asp(
    ASP.approval,
    "MANDATORY",
    "An approval request names its thread, turn and item; once answered (accept) it is resolved and its turn ends.",
    `${README}#approvals; schema: CommandExecutionRequestApprovalParams, FileChangeRequestApprovalParams`,
    "Whether a turn asks for an approval is the model's choice: skipped when none is asked within the step's time.",
  ),
  asp(
    ASP.unknownMethod,
    "MANDATORY",
    "A request for an unknown method gets an error response with its id.",
    "JSON-RPC 2.0 §5 (the Server MUST reply with a Response); §5.1 (-32601 Method not found)",
    "Codex 0.169 answers -32600 (its request enum has no such variant), not -32601: the code is shown, not judged.",
  ),
  asp(
    ASP.malformed,
    "MANDATORY",
    "A malformed line does not stop the server: the next request is still answered.",
    "JSON-RPC 2.0 §5.1 (-32700 Parse error); an answer to it is not required",
  ),
  asp(
    ASP.idEcho,
    "MANDATORY",
    "A response's id echoes the request's id exactly, string ids included.",
    "JSON-RPC 2.0 §5 (id); schema: RequestId",
  ),
];
