/**
 * The probe as a table of steps, run in order against one fresh agent: each
 * makes its calls, adds the rows the report shows and the checks of the
 * requirements it bears on (lib/features/probe/requirements.ts). The steps live
 * beside this file by area.
 */
import { initialize, initializedNotification, initializeOddVersion, sessionNew } from "./init-steps";
import { setConfigOption, setMode, setModel } from "./config-steps";
import { inFlight, malformedLine, stringId, unknownMethod, unknownNotification } from "./rpc-steps";
import {
  authenticateUnknown,
  closeAndDelete,
  logout,
  sessionList,
  sessionLoad,
  sessionResume,
  unstableMethods,
} from "./session-steps";
import type { ProbeStep } from "./shared";
import { cancel, promptTurn, toolCall } from "./turn-steps";
import { wholeRun } from "./whole-run";
import {
  additionalDirectories,
  authMethodsListed,
  closeInFlight,
  deleteUnknown,
  listUnmatched,
  promptContent,
  unpromptedSession,
} from "./kit-session-steps";
import { notJsonRpc, processEnd, unknownSession, withoutParams } from "./kit-rpc-steps";

export type { ProbeStep } from "./shared";
export { STARTUP_ALLOWANCE } from "./shared";
export { answersIn } from "./turn-steps";

/** The steps in order; the session is closed and deleted last, then stdin. */
export const STEPS: readonly ProbeStep[] = [
  { name: "initialize with an unsupported version", run: initializeOddVersion },
  { name: "initialize", run: initialize },
  { name: "authMethods listed", run: authMethodsListed },
  { name: "`initialized` notification", run: initializedNotification },
  { name: "session/new", run: sessionNew },
  { name: "prompt turn", run: promptTurn },
  { name: "tool call", run: toolCall },
  { name: "authenticate with an unknown method", run: authenticateUnknown },
  { name: "session/list", run: sessionList },
  { name: "session/list of a directory no session uses", run: listUnmatched },
  { name: "session/load", run: sessionLoad },
  { name: "session/resume", run: sessionResume },
  { name: "a session never prompted", run: unpromptedSession },
  { name: "an additional directory", run: additionalDirectories },
  { name: "session/set_mode", run: setMode },
  { name: "session/set_model", run: setModel },
  { name: "session/set_config_option", run: setConfigOption },
  { name: "logout", run: logout },
  { name: "unstable methods", run: unstableMethods },
  { name: "unknown method", run: unknownMethod },
  { name: "a request without params", run: withoutParams },
  { name: "unknown notification", run: unknownNotification },
  { name: "malformed line", run: malformedLine },
  { name: "a line that is not JSON-RPC", run: notJsonRpc },
  { name: "string id", run: stringId },
  { name: "two requests in flight", run: inFlight },
  { name: "session/cancel", run: cancel },
  { name: "prompt content kinds", run: promptContent },
  { name: "an unknown session", run: unknownSession },
  { name: "session/close during a turn", run: closeInFlight },
  { name: "session/close and session/delete", run: closeAndDelete },
  // After the real delete: the matrix (probe/matrix.ts) reads the first session/delete row.
  { name: "session/delete of a session never created", run: deleteUnknown },
  { name: "the whole run", run: wholeRun },
  { name: "stderr and the exit", run: processEnd },
];
