/**
 * The protocol registry: one `ProtocolSpec` (./spec.ts) per protocol name of
 * lib/protocol/protocols.ts. It lives at lib/features, the top layer, because a spec's parts
 * (handshake, probe, compose rules) are features; frames, contracts and folds read the thin
 * descriptor in lib/protocol/protocols.ts instead. Adding a protocol: its descriptor there, its
 * folder here, one line below (the type refuses a missing one), and its view in
 * components/protocol-views.ts (docs/architecture.md, "Adding a protocol").
 */
import type { LogFolds } from "../../folds/agent-facts";
import type { Frame } from "../../protocol/frame";
import { protocolOf, type ProtocolName } from "../../protocol/protocols";
import type { ProbeResult } from "../probe/probe";
import type { Driver, ProbeOptions } from "../probe/context";
import { ACP_SPEC } from "./acp/spec";
import { ACP_V2_SPEC } from "./acp-v2/spec";
import { APP_SERVER_SPEC } from "./codex-app-server/spec";
import type { ProtocolSpec } from "./spec";

export type { ProtocolSpec } from "./spec";

export const PROTOCOL_SPECS = {
  acp: ACP_SPEC,
  "acp-v2": ACP_V2_SPEC,
  "codex-app-server": APP_SERVER_SPEC,
} as const satisfies Readonly<Record<ProtocolName, ProtocolSpec>>;

declare const READ_BY_SPEC: unique symbol;

/**
 * A conversation's state as the spec `specOf` gives reads it: made only by `specState`, so no
 * caller hands a spec's prompt client or compose rules anything else (the snapshot, say).
 */
export type SpecState = { readonly [READ_BY_SPEC]: true };

/** The spec of a protocol, or of a record's (absent: ACP, as `protocolOf`). */
export const specOf = (protocol: ProtocolName | undefined): ProtocolSpec<SpecState> =>
  PROTOCOL_SPECS[protocolOf(protocol === undefined ? undefined : { protocol })] as unknown as ProtocolSpec<SpecState>;

/** A protocol's conversation type: what its spec's fold makes of a log. */
export type ConversationOf<P extends ProtocolName> =
  (typeof PROTOCOL_SPECS)[P] extends ProtocolSpec<infer C> ? C : never;

/**
 * One conversation, typed by its protocol: the browser's snapshot holds one, folded by its own
 * protocol's spec. Adding a protocol adds a member here through the registry, no field anywhere.
 */
export type Conversation = {
  [P in ProtocolName]: { readonly protocol: P; readonly state: ConversationOf<P> };
}[ProtocolName];

/** A protocol's conversation before any frame. */
export const emptyConversation = (protocol: ProtocolName): Conversation =>
  ({ protocol, state: PROTOCOL_SPECS[protocol].emptyConversation }) as Conversation;

/**
 * A conversation's state as the protocol's spec reads it: its own, or the spec's empty one when
 * the conversation is another protocol's (a log that restarted for another agent).
 */
export function conversationState<P extends ProtocolName>(protocol: P, conversation: Conversation): ConversationOf<P> {
  const state = conversation.protocol === protocol ? conversation.state : PROTOCOL_SPECS[protocol].emptyConversation;
  return state as ConversationOf<P>;
}

/** A conversation's state for `specOf(protocol)`'s parts (its own, or the spec's empty one). */
export const specState = (protocol: ProtocolName, conversation: Conversation): SpecState =>
  conversationState(protocol, conversation) as unknown as SpecState;

/**
 * Folds a log's new frames by the protocol's own fold: a new record of the facts and the
 * conversation only (`prev` may be the whole snapshot), each the same object when the frames did
 * not change it (a conversation of another protocol starts over).
 */
export function foldConversation(
  protocol: ProtocolName,
  frames: readonly Frame[],
  prev: LogFolds<Conversation>,
): LogFolds<Conversation> {
  const spec: ProtocolSpec = PROTOCOL_SPECS[protocol];
  const own = conversationState(protocol, prev.conversation);
  const next = spec.foldLog(frames, { facts: prev.facts, conversation: own });
  const same = next.conversation === own && prev.conversation.protocol === protocol;
  const conversation = same ? prev.conversation : ({ protocol, state: next.conversation } as Conversation);
  return { facts: next.facts, conversation };
}

/** The tab's topic from its conversation, by the conversation's own spec. */
export const conversationTopic = (conversation: Conversation): string =>
  (PROTOCOL_SPECS[conversation.protocol] as ProtocolSpec).topic(conversation.state);

/** Runs the probe of the options' protocol. */
export const runProbe = (driver: Driver, options: ProbeOptions): Promise<ProbeResult> =>
  specOf(options.protocol).probe(driver, options);
