/**
 * The shared set-up of the integration journeys against third-party ACP agents
 * (test/agents, pinned): its fake model API, a throw-away HOME, a temporary
 * workspace and a relay confined to it, with the agent as a profile in the
 * config format the relay reads today. Registers its own hooks.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { Frame } from "../../lib/protocol/frame";
import { outcomeOf, requestFrame, type RpcOutcome } from "../../lib/protocol/jsonrpc";
import { startFakeAnthropicApi } from "../fake-models/anthropic";
import type { FakeModelApi } from "../fake-models/http";
import { startFakeOpenAiApi } from "../fake-models/openai";
import { type AgentKind, agentProfile, isQwenMainLoop, prepareAgentHome } from "../agent-profiles";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

export { agentProfile, type AgentKind } from "../agent-profiles";

export interface AgentRelay {
  kind: AgentKind;
  api: FakeModelApi | undefined;
  relay: TestRelay;
  base: string;
  workspace: string;
  home: string;
  client(): Promise<AgentClient>;
}

const CLIENT_METHODS = /^(session\/request_permission|fs\/|terminal\/)/;

/** A relay client with request helpers: ids count up per client. */
export class AgentClient extends TestClient {
  private nextId = 1;

  constructor(url: string, auth: Record<string, unknown>) {
    super(url, auth);
    // As an ACP client library does (and a user can in the Frames tab): an agent request for a
    // method outside the protocol (Qwen Code's craft/drainMidTurnQueue) is answered "method not found".
    this.socket.on("frames", (frames) => {
      for (const f of frames) {
        if (f.dir !== "from-agent" || f.kind !== "request" || !f.method || CLIENT_METHODS.test(f.method)) continue;
        void this.send({ jsonrpc: "2.0", id: f.id, error: { code: -32601, message: `Method not found: ${f.method}` } });
      }
    });
  }

  async request(method: string, params: unknown, timeoutMs = 60_000): Promise<RpcOutcome> {
    const id = this.nextId++;
    await this.send(requestFrame(id, method, params));
    return outcomeOf(await this.response(id, timeoutMs));
  }

  /** Sends a request without waiting; returns its id. */
  async sendRequest(method: string, params: unknown): Promise<number> {
    const id = this.nextId++;
    await this.send(requestFrame(id, method, params));
    return id;
  }

  updates(variant: string): Frame[] {
    return this.frames.filter(
      (f) => f.method === "session/update" && (f.message as any)?.params?.update?.sessionUpdate === variant,
    );
  }

  /** The agent's streamed message text. */
  messageText(): string {
    return this.updates("agent_message_chunk")
      .map((f) => (f.message as any).params.update.content?.text ?? "")
      .join("");
  }
}

export function useAgentRelay(kind: AgentKind): AgentRelay {
  const clients: TestClient[] = [];
  const ctx = {
    kind,
    async client() {
      const c = new AgentClient(ctx.relay.url, { token: "test-token" });
      clients.push(c);
      await c.connected();
      return c;
    },
  } as AgentRelay;

  beforeAll(async () => {
    ctx.api =
      kind === "qwen"
        ? await startFakeOpenAiApi(isQwenMainLoop)
        : kind === "claude"
          ? await startFakeAnthropicApi()
          : undefined;
    ctx.base = realpathSync(mkdtempSync(path.join(tmpdir(), `acp-${kind}-`)));
    ctx.home = path.join(ctx.base, "home");
    ctx.workspace = path.join(ctx.base, "ws");
    mkdirSync(ctx.home);
    mkdirSync(ctx.workspace);
    prepareAgentHome(kind, ctx.home);
    ctx.relay = await startTestRelay({
      workspaceRoots: [ctx.workspace],
      graceMs: 200,
      killGraceMs: 3_000,
      profiles: { [kind]: agentProfile(kind, ctx.api?.url, ctx.home) },
      defaultProfile: kind,
    });
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(async () => {
    await ctx.relay?.close();
    await ctx.api?.close();
    if (ctx.base) rmSync(ctx.base, { recursive: true, force: true });
  });
  return ctx;
}

/** The result of an outcome that must have succeeded. */
export function resultOf(outcome: RpcOutcome): any {
  expect(outcome, JSON.stringify(outcome)).toMatchObject({ kind: "result" });
  return (outcome as { result: unknown }).result;
}
