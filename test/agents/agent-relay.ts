/**
 * The shared set-up of the integration journeys against third-party ACP agents
 * (test/agents, pinned): its fake model API, a throw-away HOME, a temporary
 * workspace and a relay confined to it, with the agent as a profile in the
 * config format the relay reads today. Registers its own hooks.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { ProfileConfig } from "../../server/config";
import type { Frame } from "../../lib/frame";
import { outcomeOf, requestFrame, type RpcOutcome } from "../../lib/jsonrpc";
import { startFakeAnthropicApi } from "../fake-models/anthropic";
import type { FakeModelApi } from "../fake-models/http";
import { startFakeOpenAiApi } from "../fake-models/openai";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

const bin = (name: string) => path.resolve(import.meta.dirname, "node_modules", ".bin", name);

export type AgentKind = "qwen" | "claude" | "sdk-example";

/** The profile each agent needs, given its fake API and HOME (see docs/agents.md). */
export function agentProfile(kind: AgentKind, apiUrl: string | undefined, home: string): ProfileConfig {
  const common = { HOME: home, NO_COLOR: "1" };
  switch (kind) {
    case "qwen":
      return {
        command: bin("qwen"),
        args: ["--acp", "--approval-mode", "default"],
        env: {
          ...common,
          OPENAI_API_KEY: "test-key",
          OPENAI_BASE_URL: `${apiUrl}/v1`,
          OPENAI_MODEL: "fake-model",
        },
        description: "Qwen Code (test/agents)",
      };
    case "claude":
      return {
        command: bin("claude-agent-acp"),
        args: [],
        env: {
          ...common,
          ANTHROPIC_API_KEY: "test-key",
          ANTHROPIC_BASE_URL: apiUrl!,
          // Claude Code refuses to skip permissions as root unless told it is sandboxed.
          IS_SANDBOX: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_AUTOUPDATER: "1",
        },
        description: "Claude's ACP adapter (test/agents)",
      };
    case "sdk-example":
      return {
        command: process.execPath,
        args: [path.resolve(import.meta.dirname, "node_modules/@agentclientprotocol/sdk/dist/examples/agent.js")],
        env: common,
        description: "ACP SDK 1.x example agent (test/agents)",
      };
  }
}

/** Qwen Code's own turns, not its memory-extraction sub-agent that runs after a turn. */
const isQwenMainLoop = (body: Record<string, unknown>): boolean => {
  const first = (body.messages as Array<{ role?: string; content?: unknown }> | undefined)?.[0];
  return first?.role === "system" && typeof first.content === "string" && first.content.startsWith("You are Qwen Code");
};

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
    if (kind === "qwen") {
      // No telemetry, no update check, no IDE mode: nothing leaves 127.0.0.1.
      mkdirSync(path.join(ctx.home, ".qwen"));
      writeFileSync(
        path.join(ctx.home, ".qwen", "settings.json"),
        JSON.stringify({
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
          security: { auth: { selectedType: "openai" } },
        }),
      );
    }
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
