/**
 * The protocol registry: one `ProtocolSpec` (./spec.ts) per protocol name of
 * lib/protocol/protocols.ts. It lives at lib/features, the top layer, because a spec's parts
 * (handshake, probe, compose rules) are features; frames, contracts and folds read the thin
 * descriptor in lib/protocol/protocols.ts instead. Adding a protocol: its descriptor there, its
 * folder here, one line below (the type refuses a missing one), and its view in
 * components/protocol-views.ts (docs/architecture.md, "Adding a protocol").
 */
import { protocolOf, type ProtocolName } from "../../protocol/protocols";
import type { ProbeResult } from "../probe/probe";
import type { Driver, ProbeOptions } from "../probe/context";
import { ACP_SPEC } from "./acp/spec";
import { ACP_V2_SPEC } from "./acp-v2/spec";
import { APP_SERVER_SPEC } from "./codex-app-server/spec";
import type { ProtocolSpec } from "./spec";

export type { ProtocolSpec } from "./spec";

export const PROTOCOL_SPECS: Readonly<Record<ProtocolName, ProtocolSpec>> = {
  acp: ACP_SPEC,
  "acp-v2": ACP_V2_SPEC,
  "codex-app-server": APP_SERVER_SPEC,
};

/** The spec of a protocol, or of a record's (absent: ACP, as `protocolOf`). */
export const specOf = (protocol: ProtocolName | undefined): ProtocolSpec =>
  PROTOCOL_SPECS[protocolOf(protocol === undefined ? undefined : { protocol })];

/** Runs the probe of the options' protocol. */
export const runProbe = (driver: Driver, options: ProbeOptions): Promise<ProbeResult> =>
  specOf(options.protocol).probe(driver, options);
