/**
 * ACP v2's spec: ACP's handshake asking for protocolVersion 2, ACP's fold (it already reads a v2
 * conversation: state_update ends the turn, tool_call_update upserts), the v2 probe with the kit's
 * v2 ids (./probe.ts). Never served by a warm agent: the pool initializes with version 1.
 */
import { PROTOCOLS } from "../../../protocol/protocols";
import { runHandshake } from "../../connect/handshake";
import { ACP_SPEC } from "../acp/spec";
import type { ProtocolSpec } from "../spec";
import { answerV2 } from "./answer";

/** The version a v2 Connect asks for; an agent answering below it fails Connect (handshake.ts). */
export const ACP_V2 = 2;

export const ACP_V2_SPEC: ProtocolSpec = {
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
  // Loaded when a probe runs: the pages that only show a conversation (the one-file export) leave it out.
  probe: (driver, options) => import("./probe").then((m) => m.runV2SpecProbe(driver, options)),
  answer: answerV2,
};
