/**
 * A protocol's spec: everything the rest of the code would otherwise branch on by protocol name.
 * The generic code (Connect, compare, re-run, replay, diff, validate, the relay's answerer, the
 * browser) asks `specOf(protocol)` (./registry.ts) and never names a protocol.
 *
 * Split in two by lib/'s layers: `ProtocolDescriptor` (lib/protocol/protocols.ts) holds the wire
 * facts frames, contracts and folds read; this record adds the feature-layer parts. Its parts are
 * implemented in the protocol's folder (./acp/, ./codex-app-server/), which imports the shared
 * feature code but never the registry (so the registry's table is built without import cycles).
 */
import type { ProtocolDescriptor, ProtocolName } from "../../protocol/protocols";
import type { Frame } from "../../protocol/frame";
import type { LogFolds } from "../../folds/agent-facts";
import type { RpcError } from "../../protocol/jsonrpc";
import type { ConnectDeps, ConnectInput, ConnectTimeouts } from "../connect/connect-steps";
import type { HandshakeEnd } from "../connect/handshake";
import type { PromptClient } from "../connect/flow-prompt";
import type { ComposeRules } from "../compose/catalog";
import type { Driver, ProbeOptions } from "../probe/context";
import type { ProbeResult } from "../probe/probe";
import type { SideEnd, SideInput, SidePort } from "../compare/side-input";
import type { CompareTurns } from "../compare/turns";

/** Marks a replay's own words (`_meta`, `data`), so a view can tell them from the agent's. */
export const REPLAY_NOTE_META = "acpPlayground/replayNote";

/** Connect's handshake once the agent runs (`pooled`: a warm agent, already initialized). */
export type ConnectHandshake = (
  deps: ConnectDeps,
  input: ConnectInput,
  limits: ConnectTimeouts,
  started: { pooled: boolean },
) => Promise<HandshakeEnd>;

/** A policy's answer to one of the agent's requests, when the protocol answers it itself. */
export type ProtocolAnswer = { result: unknown } | { error: RpcError };

/**
 * `C` is the protocol's conversation: what its fold makes of a log (ACP's session view, the
 * app-server's threads), the type of the browser snapshot's `conversation.state` for it
 * (lib/features/protocols/registry.ts, `Conversation`). The parts that read it are methods, so a
 * spec of any conversation is a `ProtocolSpec` where the conversation is not read.
 */
export interface ProtocolSpec<C = unknown> extends ProtocolDescriptor {
  readonly name: ProtocolName;
  /** Connect: the client handshake, the session (or thread) opened. */
  readonly connect: ConnectHandshake;
  /** Whether its agents may come warm from the pool (initialized before Connect). */
  readonly poolable: boolean;
  /** Compare and `record`: a handshake with nobody to ask, then one turn to its end. */
  readonly side: {
    readonly open: (port: SidePort, input: Omit<SideInput, "prompt">) => Promise<HandshakeEnd>;
    readonly turn: (port: SidePort, input: SideInput, sessionId: string) => Promise<SideEnd>;
  };
  /** The prompt box's client. */
  readonly promptClient: PromptClient<C>;
  /** The probe: its steps and requirements, run against a live agent. */
  readonly probe: (driver: Driver, options: ProbeOptions) => Promise<ProbeResult>;
  /**
   * The answer a policy ("auto", "deny") gives to one of its requests when the protocol itself
   * decides it (app-server approvals); undefined: the relay's generic answers (lib/features/answers/policy.ts).
   */
  readonly answer: (method: string, params: unknown, policy: "auto" | "deny") => ProtocolAnswer | undefined;
  /** The conversation before any frame. */
  readonly emptyConversation: C;
  /**
   * Folds a log's new frames, once, by this protocol's own fold (the browser's frame log): the
   * facts and the conversation, each kept as it was (the same object) when the frames did not
   * change it.
   */
  foldLog(frames: readonly Frame[], prev: LogFolds<C>): LogFolds<C>;
  /** What a tab is recognised by: the newest conversation's title, else its first prompt ("" for none). */
  topic(conversation: C): string;
  /** A comparison's reading of one side's frames: its turns (lib/features/compare/compare.ts). */
  readonly compareTurns: CompareTurns;
  /** The compose panel's rules (lib/features/compose/catalog.ts). */
  readonly compose: ComposeRules<C>;
  /** Ids that differ from run to run, aliased in diffs (lib/features/compare/transcript-align.ts). */
  readonly ids: {
    /** Keys whose string value is such an id, with the alias's kind. */
    readonly keys: ReadonlyMap<string, string>;
    /** Objects whose `id` is such an id, by the key that holds them (or a list of them). */
    readonly owners: ReadonlyMap<string, string>;
    /** Whether paths carry a rollout file's date and time (Codex). */
    readonly rolloutTime: boolean;
  };
  /** A notification that ends a turn after its request was answered (a re-run diff waits for it). */
  readonly turnEndNotification?: string;
  /**
   * Requests answered once their work has begun, by the notification that says it began, sent from
   * another task: whether the answer comes before or after that notification is the agent's
   * scheduling, not what it did. A diff puts such an answer right after the notification.
   */
  readonly answeredWhileWorking?: ReadonlyMap<string, string>;
  /**
   * A re-run's own rule for one recorded client message (mutated in place): `skip` to send nothing,
   * or what was left out; undefined: sent as recorded.
   */
  readonly rerunLeaveOut: (message: Record<string, unknown>) => { skip: true } | string | undefined;
  /** A replay's note that the live prompt is not the recorded one, as a message of this protocol. */
  readonly replayNote: (turnParams: unknown, said: string) => object;
}

/** Every part a spec must have (the registry test checks each protocol against it). */
export const SPEC_PARTS = [
  "label",
  "jsonrpcMember",
  "turnMethod",
  "conversation",
  "turnEndField",
  "connectSteps",
  "answerable",
  "sessionRules",
  "schema",
  "name",
  "connect",
  "poolable",
  "side",
  "promptClient",
  "probe",
  "answer",
  "emptyConversation",
  "foldLog",
  "topic",
  "compareTurns",
  "compose",
  "ids",
  "rerunLeaveOut",
  "replayNote",
] as const satisfies readonly (keyof ProtocolSpec)[];

/** The parts a spec lacks (undefined, or not callable where a function is due); empty when whole. */
export function missingParts(spec: object): string[] {
  const parts = spec as Record<string, unknown>;
  const callable = (v: unknown) => typeof v === "function";
  const missing: string[] = SPEC_PARTS.filter((p) => parts[p] === undefined || parts[p] === null);
  for (const fn of ["connect", "probe", "answer", "foldLog", "topic", "compareTurns", "rerunLeaveOut", "replayNote"])
    if (parts[fn] !== undefined && !callable(parts[fn])) missing.push(fn);
  const side = parts.side as Record<string, unknown> | undefined;
  for (const fn of ["open", "turn"]) if (side && !callable(side[fn])) missing.push(`side.${fn}`);
  const client = parts.promptClient as Record<string, unknown> | undefined;
  for (const fn of ["sessionId", "turn", "send", "cancel"])
    if (client && !callable(client[fn])) missing.push(`promptClient.${fn}`);
  const compose = parts.compose as Record<string, unknown> | undefined;
  for (const fn of ["support", "prefill", "suggest", "warnings", "variantNote", "notes"])
    if (compose && !callable(compose[fn])) missing.push(`compose.${fn}`);
  return missing;
}
