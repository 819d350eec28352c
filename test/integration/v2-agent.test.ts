/**
 * The v2 test agent (test/fixtures/v2-agent.mjs) against Connect's own flow (lib/features/connect/flow.ts)
 * over its stdio: the handshake asks for v2, every frame either side sends is valid against the SDK's
 * schema/v2, and the turn ends with state_update idle.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { runConnect } from "@/lib/features/connect/flow";
import type { RpcOutcome } from "@/lib/protocol/jsonrpc";
import { FrameSequencer } from "@/lib/protocol/frame-sequencer";
import { RequestClient } from "@/lib/protocol/request-port";
import { ok } from "@/lib/protocol/result";
import { createSchemaChecker } from "@/lib/protocol/schema-check";
import { CLIENT_INFO } from "@/lib/protocol/client-capabilities";

const require = createRequire(import.meta.url);
const v2 = createSchemaChecker(
  JSON.parse(readFileSync(require.resolve("@agentclientprotocol/sdk/schema/v2/schema.json"), "utf8")),
);
const AGENT = path.resolve(import.meta.dirname, "../fixtures/v2-agent.mjs");

interface Msg {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

function start() {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [AGENT], {
    env: { ...process.env, V2_AGENT_DELAY_MS: "1" },
  });
  const received: Msg[] = [];
  const sent: Msg[] = [];
  const listeners = new Set<(m: Msg) => void>();
  // The playground's own request port over the child's stdio: frames made by one sequencer, paired by requestSeq.
  const frames = new FrameSequencer();
  let next = 1;
  const port = new RequestClient({
    send: (frame) => {
      const line = typeof frame === "string" ? frame : JSON.stringify(frame);
      sent.push(JSON.parse(line) as Msg);
      child.stdin.write(line + "\n");
      return ok(frames.line("to-agent", line).seq);
    },
    nextId: () => next++,
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    const m = JSON.parse(line) as Msg;
    received.push(m);
    port.received([frames.line("from-agent", line)]);
    for (const l of listeners) l(m);
  });
  const request = (method: string, params: unknown): Promise<RpcOutcome> => port.request(method, params);
  const until = (pred: (m: Msg) => boolean) =>
    new Promise<Msg>((resolve) => {
      const hit = received.find(pred);
      if (hit) return resolve(hit);
      const l = (m: Msg) => pred(m) && (listeners.delete(l), resolve(m));
      listeners.add(l);
    });
  return { child, received, sent, request, until };
}

let agent: ReturnType<typeof start> | undefined;
afterEach(() => {
  agent?.child.kill();
  agent = undefined;
});

describe("the v2 test agent", () => {
  it("Connect asks for v2 and gets it; a prompt turn streams v2 updates and ends on state_update idle", async () => {
    agent = start();
    const a = agent;
    const done = await runConnect(
      {
        start: async () => ({ ok: true, value: { pooled: false } }),
        pooledInitialize: async () => undefined,
        request: a.request,
        progress: () => {},
      },
      { cwd: "/w", protocolVersion: 2, clientCapabilities: {} },
    );
    expect(done).toMatchObject({ step: "ready", requestedVersion: 2, negotiatedVersion: 2, sessionId: "sess-v2-1" });

    const prompt = await a.request("session/prompt", {
      sessionId: "sess-v2-1",
      prompt: [{ type: "text", text: "hi" }],
    });
    expect(prompt).toMatchObject({ kind: "result", result: { messageId: expect.any(String) } });
    await a.until((m) => m.method === "session/update" && (m.params?.update as { state?: string }).state === "idle");

    const kinds = a.received
      .filter((m) => m.method === "session/update")
      .map((m) => (m.params!.update as { sessionUpdate: string }).sessionUpdate);
    expect(kinds).toEqual([
      "state_update",
      "user_message",
      "agent_thought",
      "tool_call_update",
      "tool_call_content_chunk",
      "tool_call_update",
      "agent_message",
      "state_update",
    ]);

    // Every frame, both ways, against the v2 schema.
    const defs: Record<string, [string, string]> = {
      initialize: ["InitializeRequest", "InitializeResponse"],
      "session/new": ["NewSessionRequest", "NewSessionResponse"],
      "session/prompt": ["PromptRequest", "PromptResponse"],
    };
    const issues: unknown[] = [];
    for (const s of a.sent) {
      const [req, res] = defs[s.method!]!;
      issues.push(...v2.validate(req, s.params, `${s.method} params`));
      const answer = a.received.find((r) => r.id === s.id && !r.method);
      issues.push(...v2.validate(res, answer?.result, `${s.method} result`));
    }
    for (const m of a.received.filter((r) => r.method === "session/update"))
      issues.push(...v2.validate("UpdateSessionNotification", m.params, "session/update"));
    expect(issues).toEqual([]);
  });

  it("refuses a v1 initialize with -32022 naming the versions it speaks", async () => {
    agent = start();
    const res = await agent.request("initialize", {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: CLIENT_INFO,
    });
    expect(res).toMatchObject({ kind: "error", error: { code: -32022 } });
    // The checker is not vacuous: v1's initialize params are not v2's.
    expect(v2.validate("InitializeRequest", agent.sent[0]!.params).length).toBeGreaterThan(0);
  });
});
