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
import { CLIENT_METHODS } from "../protocol/methods";

const idKey = (id: JsonRpcId): string => (typeof id === "string" ? `s:${id}` : `n:${String(id)}`);

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
}

export class FrameIndex {
  /** Open requests by direction and id key, to spot an id reused while in flight. */
  private readonly open: Record<FrameDirection, Map<string, Frame>> = {
    "to-agent": new Map(),
    "from-agent": new Map(),
  };
  /** Every open request by seq, oldest first (Map keeps insertion order). */
  private readonly openBySeq = new Map<number, Frame>();
  /** request seq <-> response seq */
  private readonly pairs = new Map<number, number>();
  /** Requests sent with an id that was still waiting for an answer in the same direction. */
  private readonly reused = new Set<number>();
  private readonly methodSet = new Set<string>();
  private readonly variantSet = new Set<string>();
  private methodList: readonly string[] = [];
  private variantList: readonly string[] = [];
  /** Bumped whenever a request is answered or opened: per-frame facts changed. */
  version = 0;

  add(frame: Frame): IndexChange {
    if (frame.method !== undefined && !this.methodSet.has(frame.method)) {
      this.methodSet.add(frame.method);
      this.methodList = [...this.methodSet].sort();
    }
    const variant = updateVariantOf(frame);
    if (variant !== undefined && !this.variantSet.has(variant)) {
      this.variantSet.add(variant);
      this.variantList = [...this.variantSet].sort();
    }
    if (frame.kind === "request" && frame.id !== undefined) {
      const key = idKey(frame.id);
      const open = this.open[frame.dir];
      if (open.has(key)) this.reused.add(frame.seq);
      open.set(key, frame);
      this.openBySeq.set(frame.seq, frame);
      this.version++;
      return { opened: frame };
    }
    if (frame.kind === "response" && frame.requestSeq !== undefined) {
      const request = this.openBySeq.get(frame.requestSeq);
      if (!request) return {};
      const requests = this.open[request.dir];
      const key = idKey(request.id!);
      if (requests.get(key) === request) requests.delete(key);
      this.openBySeq.delete(request.seq);
      this.pairs.set(request.seq, frame.seq);
      this.pairs.set(frame.seq, request.seq);
      this.version++;
      return { closed: request };
    }
    return {};
  }

  /** The response to a request, or the request of a response, by seq. */
  partnerOf(seq: number): number | undefined {
    return this.pairs.get(seq);
  }

  isUnanswered(seq: number): boolean {
    return this.openBySeq.has(seq);
  }

  /** True for a request whose id was already in flight in the same direction. */
  isReusedId(seq: number): boolean {
    return this.reused.has(seq);
  }

  /** Requests still waiting for an answer, oldest first; all directions unless given. */
  unanswered(dir?: FrameDirection): Frame[] {
    const all = [...this.openBySeq.values()];
    return dir ? all.filter((f) => f.dir === dir) : all;
  }

  get unansweredCount(): number {
    return this.openBySeq.size;
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
  }
}
