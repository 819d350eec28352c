/**
 * An agent in memory behind a `RequestClient`, for tests of what is written
 * against the port (handshake, compare, probe): frames are made by one
 * `FrameSequencer`, as the relay makes them, and each request is answered by a
 * handler per method, a turn later. No process, no socket.
 */
import type { Frame } from "./frame";
import { FrameSequencer } from "./frame-sequencer";
import type { RpcError } from "./jsonrpc";
import { isObject } from "./json";
import { RequestClient } from "./request-port";
import { ok } from "./result";

/** A handler's answer: a result, an error, or none at all (the agent stays silent). */
export type MemoryAnswer = { result: unknown } | { error: RpcError } | "silent";

export type MemoryHandler = (params: unknown, request: Frame) => MemoryAnswer;

export function memoryAgent(handlers: Record<string, MemoryHandler>) {
  const sequencer = new FrameSequencer();
  const frames: Frame[] = [];
  let next = 1;
  const take = (frame: Frame) => {
    frames.push(frame);
    return frame;
  };
  const port = new RequestClient({
    send: (sent) => {
      const line = typeof sent === "string" ? sent : JSON.stringify(sent);
      const frame = take(sequencer.line("to-agent", line));
      if (frame.kind === "request") setTimeout(() => answer(frame), 0);
      return ok(frame.seq);
    },
    nextId: () => next++,
  });
  const answer = (request: Frame) => {
    const handler = handlers[request.method!];
    const params = isObject(request.message) ? request.message.params : undefined;
    const out: MemoryAnswer = handler
      ? handler(params, request)
      : { error: { code: -32601, message: `Method not found: ${request.method}` } };
    if (out === "silent") return;
    const response = take(sequencer.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: request.id, ...out })));
    port.received([response]);
  };
  /** What the client sent, as [method, params], in order. */
  const sent = () =>
    frames
      .filter((f) => f.dir === "to-agent")
      .map((f) => [f.method, isObject(f.message) ? f.message.params : undefined] as const);
  return { port, frames, sent };
}
