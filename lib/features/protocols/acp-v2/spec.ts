/**
 * ACP v2's spec: ACP's handshake asking for protocolVersion 2, ACP's fold (it reads a v2
 * conversation: state_update ends the turn, tool_call_update upserts) started as v2, a turn for
 * compare and `record` that ends at state_update idle (./side-turn.ts), the v2 probe with the kit's
 * v2 ids (./probe.ts). Never served by a warm agent: the pool initializes with version 1.
 */
import { PROTOCOLS } from "../../../protocol/protocols";
import { runHandshake } from "../../connect/handshake";
import { ACP_SPEC } from "../acp/spec";
import type { ProtocolSpec } from "../spec";
import type { SessionViewState } from "../../../folds/session-view";
import { answerV2 } from "./answer";
import { runV2SideTurn } from "./side-turn";
import { EMPTY_FACTS_STATE } from "../../../folds/agent-facts";

/** The version a v2 Connect asks for; an agent answering below it fails Connect (handshake.ts). */
export const ACP_V2 = 2;

export const ACP_V2_SPEC: ProtocolSpec<SessionViewState> = {
  ...ACP_SPEC,
  ...PROTOCOLS["acp-v2"],
  name: "acp-v2",
  poolable: false,
  // `pooled` is never true here (poolable: false): the handshake always starts with initialize.
  connect: (deps, input, limits, { pooled }) =>
    runHandshake(
      {
        port: { request: (method, params) => deps.request(method, params) },
        progress: (p) => deps.progress({ ...p, pooled }),
        ...(deps.chooseAuth ? { chooseAuth: (r) => deps.chooseAuth!(r) } : {}),
      },
      { ...input, protocolVersion: ACP_V2, timeouts: limits },
    ),
  // Compare and `record`: the handshake asks for v2 (whose initialize declares no client fs or
  // terminal, lib/features/handshake.ts), and the turn runs on after the prompt's receipt until state_update idle.
  side: {
    open: (port, input) =>
      runHandshake(
        { port },
        { cwd: input.cwd, clientCapabilities: input.clientCapabilities ?? {}, protocolVersion: ACP_V2 },
      ),
    turn: runV2SideTurn,
  },

  // The session view reads v2 from the first frame: the turn runs on after the prompt's receipt
  // even when the log no longer holds initialize's answer (the relay's buffer dropped it).
  emptyConversation: { ...EMPTY_FACTS_STATE.view, protocolVersion: ACP_V2 },
  // Loaded when a probe runs: the pages that only show a conversation (the one-file export) leave it out.
  probe: (driver, options) => import("./probe").then((m) => m.runV2SpecProbe(driver, options)),
  answer: answerV2,
};
