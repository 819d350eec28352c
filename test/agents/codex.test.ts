/**
 * The pinned Codex (test/agents) over the relay, offline against the fake Responses API: frames
 * without "jsonrpc" are valid for its profile, the handshake (initialize, initialized,
 * thread/start) lands in a thread, a turn streams, and a command approval is answered: by the
 * client under "ask" (the default), by the relay under "auto" (accepted) and "deny" (declined);
 * a question from the model (plan mode) is answered under "auto" with its first option.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runAppServerHandshake, runAppServerTurn } from "../../lib/features/protocols/codex-app-server/handshake";
import type { Frame } from "../../lib/protocol/frame";
import { codexEscalatedCommand } from "../agent-profiles";
import type { FakeModelApi } from "../fake-models/http";
import { TestClient, type TestRelay } from "../relay-harness";
import { portOf, startCodexRig, type CodexRig } from "./codex-rig";

let api: FakeModelApi;
let relay: TestRelay;
let workspace: string;
const clients: TestClient[] = [];

let rig: CodexRig;
beforeAll(async () => {
  rig = await startCodexRig("acp-codex-");
  ({ api, relay, workspace } = rig);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(() => rig?.close());

async function connected(): Promise<{ c: TestClient; threadId: string; port: ReturnType<typeof portOf> }> {
  const c = new TestClient(relay.url, { token: "test-token" });
  clients.push(c);
  await c.connected();
  const info = await c.start({ profile: "codex", cwd: workspace });
  expect(info.protocol).toBe("codex-app-server");
  const port = portOf(c);
  const end = await runAppServerHandshake({ port }, { cwd: workspace });
  expect(end.progress, JSON.stringify(end.progress)).toMatchObject({ step: "ready" });
  return { c, threadId: end.progress.sessionId!, port };
}

const params = (f: Frame) => (f.message as { params: any }).params;

describe("Codex app-server (pinned, offline)", () => {
  it("connects: its frames leave out jsonrpc and are valid; the thread is started in the workspace", async () => {
    const { c, threadId } = await connected();
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
    const invalid = c.frames.filter((f) => f.kind === "invalid");
    expect(invalid, JSON.stringify(invalid.slice(0, 2))).toEqual([]);
    const init = c.frames.find((f) => f.dir === "to-agent" && f.method === "initialize")!;
    expect(JSON.parse(init.raw)).not.toHaveProperty("jsonrpc");
    const answer = c.frames.find((f) => f.dir === "from-agent" && f.kind === "response" && f.method === "initialize")!;
    expect(answer.raw).not.toContain('"jsonrpc"');
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
    expect(c.frames.some((f) => f.dir === "to-agent" && f.kind === "notification" && f.method === "initialized")).toBe(
      true,
    );
  });

  it("streams a turn: agent message deltas, then turn/completed", async () => {
    const { c, threadId, port } = await connected();
    api.script({ text: ["Hello ", "from the **fake** model"] });
    const end = await runAppServerTurn(port, threadId, "say hello", 60_000);
    expect(end, JSON.stringify(end)).toMatchObject({ ok: true, status: "completed" });
    const deltas = c.frames.filter((f) => f.method === "item/agentMessage/delta").map((f) => params(f).delta);
    expect(deltas.join("")).toBe("Hello from the **fake** model");
  });

  it("asks for a command approval and runs the command once accepted", async () => {
    const { c, threadId, port } = await connected();
    api.script(
      { text: ["Running it."], tools: [codexEscalatedCommand("echo approved > approved.txt")] },
      { text: ["Done."] },
    );
    const turn = runAppServerTurn(port, threadId, "make approved.txt", 90_000);
    const ask = await c.frame(
      (f) => f.kind === "request" && f.method === "item/commandExecution/requestApproval",
      "command approval",
      60_000,
    );
    expect(ask.dir).toBe("from-agent");
    expect(params(ask).command).toContain("echo approved");
    await c.send({ id: ask.id, result: { decision: "accept" } });
    const end = await turn;
    expect(end, JSON.stringify(end)).toMatchObject({ ok: true, status: "completed" });
    const answer = c.frames.find((f) => f.dir === "to-agent" && f.kind === "response" && f.id === ask.id)!;
    expect(answer.method).toBe("item/commandExecution/requestApproval");
    const file = path.join(workspace, "approved.txt");
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8").trim()).toBe("approved");
    const done = c.frames.find((f) => f.method === "item/completed" && params(f).item?.type === "commandExecution")!;
    expect(params(done).item).toMatchObject({ status: "completed", exitCode: 0 });
  });

  /** A turn whose command needs an approval, answered by the relay under `policy`; resolves with the answer and the item. */
  async function approvedByPolicy(policy: "auto" | "deny", file: string) {
    const { c, threadId, port } = await connected();
    const ack = await c.emit("policy:set", { policies: { "item/commandExecution/requestApproval": policy } });
    expect(ack).toMatchObject({ ok: true, policies: { "item/commandExecution/requestApproval": policy } });
    api.script({ tools: [codexEscalatedCommand(`echo ${policy} > ${file}`)] }, { text: ["Over."] });
    const end = await runAppServerTurn(port, threadId, `make ${file}`, 90_000);
    expect(end, JSON.stringify(end)).toMatchObject({ ok: true, status: "completed" });
    const ask = c.frames.find((f) => f.kind === "request" && f.method === "item/commandExecution/requestApproval")!;
    const answer = c.frames.find((f) => f.dir === "to-agent" && f.kind === "response" && f.requestSeq === ask.seq)!;
    const done = c.frames.find((f) => f.method === "item/completed" && params(f).item?.type === "commandExecution")!;
    return { answer: JSON.parse(answer.raw), item: params(done).item, path: path.join(workspace, file) };
  }

  it("auto policy: the relay accepts the command approval and the command runs", async () => {
    const { answer, item, path: file } = await approvedByPolicy("auto", "auto.txt");
    expect(answer).toEqual({ id: 0, result: { decision: "accept" } });
    expect(item).toMatchObject({ status: "completed", exitCode: 0 });
    expect(readFileSync(file, "utf8").trim()).toBe("auto");
  });

  it("deny policy: the relay declines the command approval and the command does not run", async () => {
    const { answer, item, path: file } = await approvedByPolicy("deny", "deny.txt");
    expect(answer).toEqual({ id: 0, result: { decision: "decline" } });
    expect(item.status).toBe("declined");
    expect(existsSync(file)).toBe(false);
  });

  it("auto policy: the relay answers the model's question (plan mode) with its first option", async () => {
    const c = new TestClient(relay.url, { token: "test-token" });
    clients.push(c);
    await c.connected();
    await c.start({ profile: "codex", cwd: workspace });
    await c.emit("policy:set", { policies: { "item/tool/requestUserInput": "auto" } });
    const port = portOf(c);
    // Plan mode (where Codex offers request_user_input) is part of its experimental API.
    await port.request("initialize", {
      clientInfo: { name: "test", version: "1" },
      capabilities: { experimentalApi: true },
    });
    await port.notify("initialized");
    const started = await port.request("thread/start", { cwd: workspace });
    const threadId = (started as { result: { thread: { id: string } } }).result.thread.id;
    const options = [
      { label: "Red (Recommended)", description: "warm" },
      { label: "Blue", description: "cool" },
    ];
    api.script(
      {
        tools: [
          {
            name: "request_user_input",
            input: { questions: [{ id: "color", header: "Color", question: "Which?", options }] },
          },
        ],
      },
      { text: ["Red it is."] },
    );
    const plan = {
      mode: "plan",
      settings: { model: "fake-model", reasoning_effort: null, developer_instructions: null },
    };
    await port.request("turn/start", { threadId, input: [{ type: "text", text: "ask me" }], collaborationMode: plan });
    await c.frame((f) => f.method === "turn/completed", "turn/completed", 60_000);
    const ask = c.frames.find((f) => f.kind === "request" && f.method === "item/tool/requestUserInput")!;
    const answer = c.frames.find((f) => f.dir === "to-agent" && f.kind === "response" && f.requestSeq === ask.seq)!;
    expect(JSON.parse(answer.raw)).toEqual({
      id: ask.id,
      result: { answers: { color: { answers: ["Red (Recommended)"] } } },
    });
  });
});
