/**
 * ACP v2's JSON-RPC batches folded as one frame each, its parts paired: a batch line is one
 * frame (one seq, as the relay records it), its entries are parts, and each request part is
 * paired with the response that answers it (in a batch of replies, or alone on a line) and the
 * other way round. v1 has no batches; the classifier (lib/protocol/frame.ts) marks an array
 * invalid there, and this fold reads the array itself.
 */
import { classifyMessage, idKey, type Frame, type FrameDirection, type JsonRpcId } from "../../protocol/frame";

/** Where a part lies: a frame, and its index in the batch (undefined: the frame is one message). */
export interface PartRef {
  seq: number;
  index?: number;
}

export interface BatchPart {
  index: number;
  kind: "request" | "notification" | "response" | "invalid";
  method?: string;
  id?: JsonRpcId;
  message: unknown;
  /** Why the part is not a JSON-RPC message. */
  error?: string;
  /** A request's answer, or the request a response answers. */
  pair?: PartRef;
}

export interface BatchFrame {
  seq: number;
  dir: FrameDirection;
  parts: BatchPart[];
}

const other = (dir: FrameDirection): FrameDirection => (dir === "to-agent" ? "from-agent" : "to-agent");

/** Folds frames in seq order; batches come out with their parts, pairs filled in as answers arrive. */
export class BatchFold {
  private readonly batches = new Map<number, BatchFrame>();
  /** Open requests by direction and id: where they lie. */
  private readonly open = new Map<string, PartRef>();
  /** Answers by where their request lies, for requests that are not batch parts. */
  private readonly answers = new Map<string, PartRef>();

  /** Takes one frame; its batch view when it is a batch. */
  add(frame: Frame): BatchFrame | undefined {
    const m = frame.message;
    if (!Array.isArray(m)) {
      if (frame.kind === "request" && frame.id !== undefined) this.request(frame.dir, frame.id, { seq: frame.seq });
      else if (frame.kind === "response" && frame.id !== undefined)
        this.response(frame.dir, frame.id, { seq: frame.seq });
      return undefined;
    }
    const parts = m.map((entry, index): BatchPart => {
      const c = classifyMessage(entry, "acp-v2");
      return {
        index,
        kind: c.kind === "request" || c.kind === "notification" || c.kind === "response" ? c.kind : "invalid",
        message: entry,
        ...(c.method !== undefined ? { method: c.method } : {}),
        ...(c.id !== undefined ? { id: c.id } : {}),
        ...(c.error ? { error: c.error } : {}),
      };
    });
    const batch: BatchFrame = { seq: frame.seq, dir: frame.dir, parts };
    this.batches.set(frame.seq, batch);
    for (const p of parts) {
      const at = { seq: frame.seq, index: p.index };
      if (p.kind === "request" && p.id !== undefined) this.request(frame.dir, p.id, at);
      else if (p.kind === "response" && p.id !== undefined && p.id !== null)
        p.pair = this.response(frame.dir, p.id, at);
    }
    return batch;
  }

  /** A batch by its frame's seq. */
  get(seq: number): BatchFrame | undefined {
    return this.batches.get(seq);
  }

  /** Where the answer of a request that was one frame lies (its response may be a batch part). */
  answerOf(seq: number): PartRef | undefined {
    return this.answers.get(String(seq));
  }

  /** Forgets what lies before `firstSeq` (the log dropped it). */
  prune(firstSeq: number): void {
    for (const seq of this.batches.keys()) if (seq < firstSeq) this.batches.delete(seq);
    for (const [seq, at] of this.answers) if (Number(seq) < firstSeq && at.seq < firstSeq) this.answers.delete(seq);
    for (const [key, at] of this.open) if (at.seq < firstSeq) this.open.delete(key);
  }

  private request(dir: FrameDirection, id: JsonRpcId, at: PartRef): void {
    this.open.set(`${dir} ${idKey(id)}`, at);
  }

  private response(dir: FrameDirection, id: JsonRpcId, at: PartRef): PartRef | undefined {
    const key = `${other(dir)} ${idKey(id)}`;
    const request = this.open.get(key);
    if (!request) return undefined;
    this.open.delete(key);
    if (request.index === undefined) this.answers.set(String(request.seq), at);
    else {
      const part = this.batches.get(request.seq)?.parts[request.index];
      if (part) part.pair = at;
    }
    return request;
  }
}

/**
 * A v2 batch frame as the messages it carries, each a frame of its own (the batch's seq, line and
 * time), so that rules and schemas judge each part; any other frame as itself. An empty batch
 * stays one invalid frame: JSON-RPC answers `[]` with an error, it is no message.
 */
export function batchParts(frame: Frame): Frame[] {
  const m = frame.message;
  if (!Array.isArray(m)) return [frame];
  if (m.length === 0) return [{ ...frame, kind: "invalid", error: "an empty batch ([]) carries no message" }];
  return m.map((entry): Frame => {
    const c = classifyMessage(entry, "acp-v2");
    const { method: _m, id: _i, error: _e, requestSeq: _r, latencyMs: _l, ...rest } = frame;
    return {
      ...rest,
      kind: c.kind,
      message: entry,
      ...(c.method !== undefined ? { method: c.method } : {}),
      ...(c.id !== undefined ? { id: c.id } : {}),
      ...(c.error ? { error: c.error } : {}),
    };
  });
}
