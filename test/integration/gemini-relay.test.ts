/**
 * The relay against the REAL Gemini CLI from node_modules, offline: the CLI talks
 * to the project's fake Gemini API on 127.0.0.1 with a throw-away HOME.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Frame } from "../../lib/protocol/frame";
import { useGeminiRelay } from "../gemini-relay-setup";
import { alive, processTree, type TestClient, waitUntil } from "../relay-harness";

// "gemini-relaunch": Gemini CLI without GEMINI_CLI_NO_RELAUNCH (any value turns the re-launch off), so it runs as two processes.
const g = useGeminiRelay({
  killGraceMs: 3_000,
  profiles: {
    "gemini-relaunch": {
      command: path.resolve("node_modules/.bin/gemini"),
      args: ["--acp"],
      env: {},
    },
  },
});

const initialize = (id: number, fs = false) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal: false },
    clientInfo: { name: "acp-playground-test", version: "0" },
  },
});

async function openSession(c: TestClient): Promise<string> {
  await c.send(initialize(1));
  const init = await c.response(1);
  expect(init.message).toMatchObject({ result: { protocolVersion: 1, agentInfo: { name: "gemini-cli" } } });
  await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: g.workspace, mcpServers: [] } });
  const created = await c.response(2);
  return (created.message as { result: { sessionId: string } }).result.sessionId;
}

const updates = (frames: Frame[], variant: string) =>
  frames.filter((f) => f.method === "session/update" && (f.message as any)?.params?.update?.sessionUpdate === variant);

describe("relay with the real Gemini CLI", () => {
  it("runs initialize -> session/new -> session/prompt with streamed text", async () => {
    const c = await g.client();
    const agent = await c.start();
    expect(agent.profile).toBe("gemini");
    expect(agent.args[0]).toBe("--acp");
    expect(agent.cwd).toBe(g.workspace);
    const sessionId = await openSession(c);

    g.api.script({ parts: [{ text: "Hello " }, { text: "from the fake API." }], delayMs: 20 });
    await c.send({
      jsonrpc: "2.0",
      id: 3,
      method: "session/prompt",
      params: { sessionId, prompt: [{ type: "text", text: "Say hello" }] },
    });
    const done = await c.response(3);
    expect(done.message).toMatchObject({ result: { stopReason: "end_turn" } });
    expect(done.method).toBe("session/prompt");
    expect(done.latencyMs).toBeGreaterThan(0);

    const text = updates(c.frames, "agent_message_chunk")
      .map((f) => (f.message as any).params.update.content.text)
      .join("");
    expect(text).toBe("Hello from the fake API.");
    expect(c.frames.map((f) => f.seq)).toEqual(c.frames.map((_, i) => i + 1));
    expect(c.frames.filter((f) => f.dir === "to-agent").map((f) => f.method)).toEqual([
      "initialize",
      "session/new",
      "session/prompt",
    ]);
  });

  it("forwards session/request_permission to the browser, which answers it", async () => {
    const c = await g.client();
    await c.start();
    const sessionId = await openSession(c);
    const target = path.join(g.workspace, "hello.txt");
    g.api.script(
      {
        parts: [{ functionCall: { name: "write_file", args: { file_path: target, content: "written by gemini\n" } } }],
      },
      { parts: [{ text: "The file is written." }] },
    );
    await c.send({
      jsonrpc: "2.0",
      id: 3,
      method: "session/prompt",
      params: { sessionId, prompt: [{ type: "text", text: "Write hello.txt" }] },
    });
    const ask = await c.frame(
      (f) => f.kind === "request" && f.method === "session/request_permission",
      "permission request",
    );
    expect(ask.dir).toBe("from-agent");
    const options = (ask.message as any).params.options as Array<{ optionId: string; kind: string }>;
    expect(options.map((o) => o.kind)).toContain("allow_once");
    // The relay must not answer on its own.
    expect(c.frames.some((f) => f.dir === "to-agent" && f.kind === "response")).toBe(false);
    expect(existsSync(target)).toBe(false);

    const allowOnce = options.find((o) => o.kind === "allow_once")!.optionId;
    const answerSeq = await c.send({
      jsonrpc: "2.0",
      id: ask.id,
      result: { outcome: { outcome: "selected", optionId: allowOnce } },
    });
    // The ack comes first; the echo of what was sent is flushed with the next batch.
    const answer = await c.frame((f) => f.seq === answerSeq, "the echoed answer");
    expect(answer).toMatchObject({ dir: "to-agent", kind: "response", method: "session/request_permission" });
    expect(answer.requestSeq).toBe(ask.seq);

    const done = await c.response(3);
    expect(done.message).toMatchObject({ result: { stopReason: "end_turn" } });
    expect(readFileSync(target, "utf8")).toBe("written by gemini\n");
    expect(updates(c.frames, "tool_call_update").map((f) => (f.message as any).params.update.status)).toContain(
      "completed",
    );
  });

  it("leaves no gemini process behind after a disconnect (both processes)", async () => {
    const c = await g.client();
    const agent = await c.start({ profile: "gemini-relaunch" });
    await c.send(initialize(1));
    await c.response(1);
    const tree = processTree(agent.pid);
    // Gemini re-launches itself: the spawned process and its worker.
    expect(tree.length).toBeGreaterThanOrEqual(2);
    c.close();
    await waitUntil(() => tree.every((pid) => !alive(pid)), "every gemini process gone", 20_000);
  });
});
