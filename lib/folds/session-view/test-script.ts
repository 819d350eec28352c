/** Test helper: frames built as the relay records them, and lookups into the folded view. */
import { RequestSeqFiller } from "../../protocol/correlate";
import { classifyLine, type Frame, type FrameDirection, type JsonRpcId } from "../../protocol/frame";
import type { MessageItem, SessionViewState } from "./types";

/** Builds frames as the relay records them: seq from 1, ts 10 ms apart unless given. */
export function script() {
  const frames: Frame[] = [];
  const pairs = new RequestSeqFiller();
  let seq = 0;
  let ts = 1000;
  const push = (dir: FrameDirection, message: object, at?: number): Frame => {
    seq += 1;
    ts = at ?? ts + 10;
    const raw = JSON.stringify(message);
    const f: Frame = pairs.fill({ seq, ts, dir, raw, message: undefined, ...classifyLine(raw) });
    frames.push(f);
    return f;
  };
  return {
    frames,
    request: (dir: FrameDirection, id: JsonRpcId, method: string, params: object, at?: number) =>
      push(dir, { jsonrpc: "2.0", id, method, params }, at),
    respond: (dir: FrameDirection, id: JsonRpcId, result: unknown, at?: number) =>
      push(dir, { jsonrpc: "2.0", id, result }, at),
    fail: (dir: FrameDirection, id: JsonRpcId, error: object, at?: number) =>
      push(dir, { jsonrpc: "2.0", id, error }, at),
    notify: (dir: FrameDirection, method: string, params: object, at?: number) =>
      push(dir, { jsonrpc: "2.0", method, params }, at),
    prompt: (id: JsonRpcId, sessionId: string, text: string, at?: number) =>
      push(
        "to-agent",
        { jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text }] } },
        at,
      ),
    update: (sessionId: string, update: object, at?: number) =>
      push("from-agent", { jsonrpc: "2.0", method: "session/update", params: { sessionId, update } }, at),
    say: (sessionId: string, text: string, at?: number) =>
      push(
        "from-agent",
        {
          jsonrpc: "2.0",
          method: "session/update",
          params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } },
        },
        at,
      ),
  };
}

export const session = (state: SessionViewState, id = "s1") => {
  const s = state.sessions[id];
  if (!s) throw new Error(`no session ${id}`);
  return s;
};
export const turn = (state: SessionViewState, i = 0, id = "s1") => {
  const t = session(state, id).turns[i];
  if (!t) throw new Error(`no turn ${i}`);
  return t;
};
export const textOf = (item: unknown) =>
  (item as MessageItem).blocks.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("");
