/**
 * The probe as a table of steps, run in order against one fresh agent: each
 * makes its calls, adds the rows the report shows and the checks of the
 * requirements it bears on (lib/features/probe-requirements.ts). The steps live
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

export type { ProbeStep } from "./shared";
export { STARTUP_ALLOWANCE } from "./shared";
export { answersIn } from "./turn-steps";

/** The steps in order; the session is closed and deleted last. */
export const STEPS: readonly ProbeStep[] = [
  { name: "initialize with an unsupported version", run: initializeOddVersion },
  { name: "initialize", run: initialize },
  { name: "`initialized` notification", run: initializedNotification },
  { name: "session/new", run: sessionNew },
  { name: "prompt turn", run: promptTurn },
  { name: "tool call", run: toolCall },
  { name: "authenticate with an unknown method", run: authenticateUnknown },
  { name: "session/list", run: sessionList },
  { name: "session/load", run: sessionLoad },
  { name: "session/resume", run: sessionResume },
  { name: "session/set_mode", run: setMode },
  { name: "session/set_model", run: setModel },
  { name: "session/set_config_option", run: setConfigOption },
  { name: "logout", run: logout },
  { name: "unstable methods", run: unstableMethods },
  { name: "unknown method", run: unknownMethod },
  { name: "unknown notification", run: unknownNotification },
  { name: "malformed line", run: malformedLine },
  { name: "string id", run: stringId },
  { name: "two requests in flight", run: inFlight },
  { name: "session/cancel", run: cancel },
  { name: "session/close and session/delete", run: closeAndDelete },
  { name: "the whole run", run: wholeRun },
];
