/**
 * Requests waiting for their answer, the one index of them: by seq (oldest
 * first; a response's `requestSeq` closes one) and, per direction, the newest
 * open request with each id (a `$/cancel_request` names an id; the sequencer
 * pairs a response by id). The sequencer's `Correlator`, the inspector's
 * `FrameIndex` and the relay's `AgentAnswerer` each keep one over the frames
 * they follow. Two indexes stay apart on purpose: the session view's pending
 * requests live in its immutable snapshot (lib/folds/session-view/items.ts),
 * and a `RequestClient`'s are callbacks waiting, not records.
 */
import { idKey, type FrameDirection, type JsonRpcId } from "./frame";

export interface PendingEntry {
  seq: number;
  dir: FrameDirection;
  id?: JsonRpcId;
}

const dirIdKey = (dir: FrameDirection, id: JsonRpcId | undefined): string => `${dir}:${idKey(id)}`;

export class PendingRequests<T extends PendingEntry> {
  private readonly bySeq = new Map<number, T>();
  /** The seq of the newest open request per direction and id. */
  private readonly newest = new Map<string, number>();

  /** Opens a request; returns the request still open with the same id in the same direction, if any (an id reused in flight). */
  open(request: T): T | undefined {
    const key = dirIdKey(request.dir, request.id);
    const before = this.newest.get(key);
    this.bySeq.set(request.seq, request);
    this.newest.set(key, request.seq);
    return before === undefined ? undefined : this.bySeq.get(before);
  }

  /** Closes the request of this seq (answered, withdrawn); returns it if it was open. */
  close(seq: number): T | undefined {
    const request = this.bySeq.get(seq);
    if (!request) return undefined;
    this.bySeq.delete(seq);
    const key = dirIdKey(request.dir, request.id);
    if (this.newest.get(key) === seq) this.newest.delete(key);
    return request;
  }

  get(seq: number): T | undefined {
    return this.bySeq.get(seq);
  }

  has(seq: number): boolean {
    return this.bySeq.has(seq);
  }

  /** The newest open request sent in `dir` with this id, in O(1). */
  newestById(dir: FrameDirection, id: JsonRpcId): T | undefined {
    const seq = this.newest.get(dirIdKey(dir, id));
    return seq === undefined ? undefined : this.bySeq.get(seq);
  }

  /** Open requests, oldest first; of one direction when given. */
  list(dir?: FrameDirection): T[] {
    const all = [...this.bySeq.values()];
    return dir ? all.filter((r) => r.dir === dir) : all;
  }

  get size(): number {
    return this.bySeq.size;
  }

  clear(): void {
    this.bySeq.clear();
    this.newest.clear();
  }
}
