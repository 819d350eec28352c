/**
 * Incremental facts about a frame log that the inspector needs and that a
 * single frame cannot tell: which request a response answers (both ways),
 * which requests are still unanswered, which ids were reused while in flight,
 * and which methods and `session/update` variants have been seen.
 *
 * Fed each frame once, in seq order; every operation is O(1) (amortised), so
 * it keeps up with the store. The relay pairs (lib/protocol/correlate.ts): a response
 * names its request by `requestSeq`. Ids are kept only to spot reuse.
 */
import type { Frame, FrameDirection, JsonRpcId } from "../protocol/frame";

import { isObject } from "../protocol/json";
import { CLIENT_METHODS, PROTOCOL_METHODS } from "../protocol/methods";
import { McpPairs } from "./mcp-pairs";
import { RecordingRules, type RuleFinding } from "./recording-rules";
import { DEFAULT_PROTOCOL, descriptorOf, type ProtocolName } from "../protocol/protocols";
import { BatchFold, batchParts, type BatchFrame, type PartRef } from "./acp-v2/batches";
import { PendingRequests } from "../protocol/pending-requests";

/** `params.update.sessionUpdate` of a `session/update` frame, if it has one. */
export function updateVariantOf(frame: Frame): string | undefined {
  if (frame.method !== CLIENT_METHODS.session_update || !isObject(frame.message)) return undefined;
  const params = frame.message.params;
  const update = isObject(params) ? params.update : undefined;
  const variant = isObject(update) ? update.sessionUpdate : undefined;
  return typeof variant === "string" ? variant : undefined;
}

export interface IndexChange {
  /** A request that is now waiting for its answer. */
  opened?: Frame;
  /** The request this frame answered. */
  closed?: Frame;
  /** An agent request whose card this frame dismissed (the agent cancelled it, or completed its elicitation). */
  dismissed?: Frame;
}

/** Why an agent request no longer waits for the user although it has no answer (yet). */
export interface Dismissal {
  reason: "cancelled" | "completed";
  /** The agent request; undefined for a completed elicitation that no longer waited (already answered). */
  request?: Frame;
  /** The frame that dismissed it: the agent's `$/cancel_request` or `elicitation/complete`. */
  bySeq: number;
  /** `elicitation/complete`'s elicitationId. */
  elicitationId?: string;
}

/** Dismissals kept for the notices that say so; older ones are dropped. */
const MAX_DISMISSALS = 20;

/** `params.requestId` of a `$/cancel_request` (a JSON-RPC id), if it is one. */
export function cancelledIdOf(frame: Frame): string | number | undefined {
  if (frame.method !== PROTOCOL_METHODS.cancel_request || frame.kind !== "notification") return undefined;
  const params = isObject(frame.message) ? frame.message.params : undefined;
  const id = isObject(params) ? params.requestId : undefined;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

const elicitationIdOf = (frame: Frame): string | undefined => {
  const params = isObject(frame.message) ? frame.message.params : undefined;
  const id = isObject(params) ? params.elicitationId : undefined;
  return typeof id === "string" ? id : undefined;
};

export class FrameIndex {
  /** Open requests by seq, and the newest per direction and id (to spot an id reused while in flight). */
  private readonly open = new PendingRequests<Frame>();
  /** request seq <-> response seq */
  private readonly pairs = new Map<number, number>();
  /** Requests sent with an id that was still waiting for an answer in the same direction. */
  private readonly reused = new Set<number>();
  private readonly methodSet = new Set<string>();
  private readonly variantSet = new Set<string>();
  private methodList: readonly string[] = [];
  private variantList: readonly string[] = [];
  /** Agent requests dismissed without an answer, by request seq. */
  private readonly dismissedSet = new Map<number, Dismissal>();
  private dismissalList: readonly Dismissal[] = [];
  /** Requests sent to the agent that the client then withdrew: request seq -> the `$/cancel_request` seq. */
  private readonly withdrawn = new Map<number, number>();
  /** `mcp/message` frames and the inner MCP messages they carry. */
  readonly mcp = new McpPairs();
  /** A protocol with batches: each batch line as one frame of parts, paired (made with the first frame). */
  private batchFold?: BatchFold;
  /** The recording rules (lib/folds/recording-rules.ts), judged as frames come; made with the first frame. */
  private ruleFold?: RecordingRules;
  /** The protocolVersion of the agent's last answer to `initialize`. */
  protocolVersion: number | undefined;
  /** Bumped whenever a request is answered or opened: per-frame facts changed. */
  version = 0;

  /**
   * `protocol`: the log's (its agent's, ACP when none); the recording rules are made for it with the
   * first frame, so ACP's own rules never judge another protocol's frames.
   */
  add(frame: Frame, protocol: ProtocolName = DEFAULT_PROTOCOL): IndexChange {
    if (frame.method !== undefined && !this.methodSet.has(frame.method)) {
      this.methodSet.add(frame.method);
      this.methodList = [...this.methodSet].sort();
    }
    const variant = updateVariantOf(frame);
    if (variant !== undefined && !this.variantSet.has(variant)) {
      this.variantSet.add(variant);
      this.variantList = [...this.variantSet].sort();
    }
    this.mcp.add(frame);
    // A log seen from its first frame knows its sessions and the client's capabilities.
    const rules = (this.ruleFold ??= new RecordingRules({
      sides: new Set(["to-agent", "from-agent"]),
      fromStart: frame.seq === 1,
      protocol,
    }));
    if (this.batchFold === undefined && descriptorOf(protocol).batches) this.batchFold = new BatchFold();
    // A batch's parts are judged as messages of their own (their findings name the batch's seq).
    if (this.batchFold?.add(frame)) for (const part of batchParts(frame)) rules.add(part);
    else rules.add(frame);
    const cancelled = cancelledIdOf(frame);
    if (cancelled !== undefined) return this.cancel(frame, cancelled);
    if (
      frame.method === CLIENT_METHODS.elicitation_complete &&
      frame.kind === "notification" &&
      frame.dir === "from-agent"
    )
      return this.complete(frame);
    if (frame.kind === "response" && frame.method === "initialize" && isObject(frame.message)) {
      const result = frame.message.result;
      const v = isObject(result) ? result.protocolVersion : undefined;
      if (typeof v === "number") this.protocolVersion = v;
    }
    if (frame.kind === "request" && frame.id !== undefined) {
      if (this.open.open(frame)) this.reused.add(frame.seq);
      this.version++;
      return { opened: frame };
    }
    if (frame.kind === "response" && frame.requestSeq !== undefined) {
      const request = this.open.close(frame.requestSeq);
      if (!request) return {};
      this.pairs.set(request.seq, frame.seq);
      this.pairs.set(frame.seq, request.seq);
      this.version++;
      return { closed: request };
    }
    return {};
  }

  /** A `$/cancel_request` names an open request of its own direction (the sender withdraws what it asked). */
  private cancel(frame: Frame, id: JsonRpcId): IndexChange {
    const request = this.open.newestById(frame.dir, id);
    if (!request) return {};
    this.version++;
    if (frame.dir === "to-agent") {
      this.withdrawn.set(request.seq, frame.seq);
      return {};
    }
    return this.dismiss({ reason: "cancelled", request, bySeq: frame.seq });
  }

  /** `elicitation/complete` closes the card of the URL-mode elicitation with that id, if one is waiting. */
  private complete(frame: Frame): IndexChange {
    const elicitationId = elicitationIdOf(frame);
    if (elicitationId === undefined) return {};
    for (const request of this.open.list("from-agent")) {
      if (request.method === CLIENT_METHODS.elicitation_create && elicitationIdOf(request) === elicitationId) {
        this.version++;
        return this.dismiss({ reason: "completed", request, bySeq: frame.seq, elicitationId });
      }
    }
    // Already answered (the usual URL flow: accepted, then completed out of band): still worth saying.
    const done: Dismissal = { reason: "completed", bySeq: frame.seq, elicitationId };
    this.dismissalList = [...this.dismissalList, done].slice(-MAX_DISMISSALS);
    return {};
  }

  private dismiss(d: Dismissal & { request: Frame }): IndexChange {
    if (this.dismissedSet.has(d.request.seq)) return {};
    this.dismissedSet.set(d.request.seq, d);
    this.dismissalList = [...this.dismissalList, d].slice(-MAX_DISMISSALS);
    return { dismissed: d.request };
  }

  /** Agent requests still waiting for the user: unanswered and not dismissed by the agent. */
  pending(): Frame[] {
    return this.unanswered("from-agent").filter((f) => !this.dismissedSet.has(f.seq));
  }

  /** Why an agent request no longer waits, if the agent dismissed it. */
  dismissalOf(seq: number): Dismissal | undefined {
    return this.dismissedSet.get(seq);
  }

  /** The newest dismissals (at most 20), oldest first; the same array until one is added. */
  get dismissals(): readonly Dismissal[] {
    return this.dismissalList;
  }

  /** The seq of the `$/cancel_request` that withdrew this request sent to the agent, if any. */
  withdrawnBy(seq: number): number | undefined {
    return this.withdrawn.get(seq);
  }

  /** True once the agent answered `initialize` with protocolVersion 2. */
  get v2(): boolean {
    return this.protocolVersion === 2;
  }

  /** The response to a request, or the request of a response, by seq. */
  /** The batch a frame is, its parts paired (a protocol with batches only). */
  batchOf(seq: number): BatchFrame | undefined {
    return this.batchFold?.get(seq);
  }

  /** Where the answer of a request that is one frame lies when it is a batch's part. */
  batchAnswerOf(seq: number): PartRef | undefined {
    return this.batchFold?.answerOf(seq);
  }

  partnerOf(seq: number): number | undefined {
    return this.pairs.get(seq);
  }

  isUnanswered(seq: number): boolean {
    return this.open.has(seq);
  }

  /** True for a request whose id was already in flight in the same direction. */
  isReusedId(seq: number): boolean {
    return this.reused.has(seq);
  }

  /** Requests still waiting for an answer, oldest first; all directions unless given. */
  unanswered(dir?: FrameDirection): Frame[] {
    return this.open.list(dir);
  }

  get unansweredCount(): number {
    return this.open.size;
  }

  /** Methods seen, sorted; the same array until a new one appears. */
  get methods(): readonly string[] {
    return this.methodList;
  }

  /** `session/update` variants seen, sorted; the same array until a new one appears. */
  get updateVariants(): readonly string[] {
    return this.variantList;
  }

  /**
   * Forgets pairs and reused-id marks for frames no longer held (seq below
   * `firstSeq`). Open requests are kept: they are still unanswered. O(size):
   * call it when the log compacts, not per batch.
   */
  prune(firstSeq: number): void {
    for (const [a, b] of this.pairs) if (a < firstSeq && b < firstSeq) this.pairs.delete(a);
    for (const seq of this.reused) if (seq < firstSeq) this.reused.delete(seq);
    for (const seq of this.dismissedSet.keys())
      if (seq < firstSeq && !this.open.has(seq)) this.dismissedSet.delete(seq);
    for (const seq of this.withdrawn.keys()) if (seq < firstSeq && !this.open.has(seq)) this.withdrawn.delete(seq);
    this.mcp.prune(firstSeq);
    this.ruleFold?.prune(firstSeq);
    this.batchFold?.prune(firstSeq);
  }

  /** What the recording rules found on a frame. */
  ruleFindings(seq: number): readonly RuleFinding[] {
    return this.ruleFold?.findingsOf(seq) ?? [];
  }
}
