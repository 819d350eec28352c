/**
 * A Codex 0.169 app-server session as recorded through the relay (trimmed to the members the
 * replay and re-run read): Connect, one turn with a command approval accepted. No "jsonrpc" on the
 * wire, as Codex writes it. For tests only.
 */
import type { Frame } from "../protocol/frame";
import { FrameSequencer } from "../protocol/frame-sequencer";

export const AS_THREAD = "019a6c1e-8f3d-7b52-a1e4-2c9f0d4b7e61";
export const AS_TURN = "019a6c1e-9a10-7c33-8e2b-5d7f1a0c9b42";

const T = AS_THREAD;
const turn = (status: string) => ({ id: AS_TURN, items: [], status, error: null });

export const APP_SERVER_SESSION: Array<["to-agent" | "from-agent", object]> = [
  ["to-agent", { id: 1, method: "initialize", params: { clientInfo: { name: "acp-playground", version: "1" } } }],
  [
    "from-agent",
    { id: 1, result: { userAgent: "acp-playground/0.169.0", platformFamily: "unix", platformOs: "linux" } },
  ],
  ["to-agent", { method: "initialized" }],
  ["to-agent", { id: 2, method: "thread/start", params: { cwd: "/ws" } }],
  ["from-agent", { id: 2, result: { thread: { id: T, cwd: "/ws", turns: [] }, model: "fake-model", cwd: "/ws" } }],
  ["from-agent", { method: "thread/started", params: { thread: { id: T, cwd: "/ws", turns: [] } } }],
  [
    "to-agent",
    {
      id: 3,
      method: "turn/start",
      params: { threadId: T, input: [{ type: "text", text: "make approved.txt", text_elements: [] }] },
    },
  ],
  ["from-agent", { id: 3, result: { turn: turn("inProgress") } }],
  ["from-agent", { method: "turn/started", params: { threadId: T, turn: turn("inProgress") } }],
  [
    "from-agent",
    {
      method: "item/agentMessage/delta",
      params: { threadId: T, turnId: AS_TURN, itemId: "msg_2", delta: "Running it." },
    },
  ],
  [
    "from-agent",
    {
      id: 0,
      method: "item/commandExecution/requestApproval",
      params: {
        threadId: T,
        turnId: AS_TURN,
        itemId: "call_2_0",
        command: "/bin/bash -lc 'echo approved > approved.txt'",
        cwd: "/ws",
        availableDecisions: ["accept", "cancel"],
      },
    },
  ],
  ["to-agent", { id: 0, result: { decision: "accept" } }],
  ["from-agent", { method: "serverRequest/resolved", params: { threadId: T, requestId: 0 } }],
  [
    "from-agent",
    {
      method: "item/completed",
      params: {
        threadId: T,
        turnId: AS_TURN,
        item: { type: "commandExecution", id: "call_2_0", status: "completed", exitCode: 0 },
      },
    },
  ],
  ["from-agent", { method: "turn/completed", params: { threadId: T, turn: turn("completed") } }],
  ["from-agent", { method: "thread/status/changed", params: { threadId: T, status: { type: "idle" } } }],
];

/** The session's frames, sequenced as the relay reads them for the app-server. */
export function appServerRecording(lines = APP_SERVER_SESSION): Frame[] {
  const s = new FrameSequencer(undefined, "codex-app-server");
  return lines.map(([dir, m]) => s.line(dir, JSON.stringify(m)));
}
