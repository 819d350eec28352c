/**
 * The v2 reference agent (test/fixtures/v2-reference-agent.mjs) as a process, one whole turn: it asks
 * permission, is allowed, ends at state_update idle, and says nothing on stderr. Its pauses once left
 * an abort listener behind each (11 in a turn: Node's MaxListenersExceededWarning on stderr, in every
 * recording of it; e2e/journey-acp-v2.spec.ts showed it).
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import path from "node:path";
import { expect, it } from "vitest";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/v2-reference-agent.mjs");

it("runs a turn with a permission to idle and writes nothing to stderr", async () => {
  const child = spawn(process.execPath, [FIXTURE], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
  const lines = createInterface({ input: child.stdout });
  const seen: Record<string, any>[] = [];
  const waiters: { test: (m: Record<string, any>) => boolean; resolve: (m: Record<string, any>) => void }[] = [];
  lines.on("line", (line) => {
    const m = JSON.parse(line) as Record<string, any>;
    seen.push(m);
    for (const w of waiters.splice(0)) {
      if (w.test(m)) w.resolve(m);
      else waiters.push(w);
    }
  });
  const next = (test: (m: Record<string, any>) => boolean) =>
    new Promise<Record<string, any>>((resolve) => {
      const found = seen.find(test);
      if (found) resolve(found);
      else waiters.push({ test, resolve });
    });

  try {
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: 2, info: { name: "test", version: "1" }, capabilities: {} },
    });
    expect((await next((m) => m.id === 1)).result.protocolVersion).toBe(2);
    send({ id: 2, method: "session/new", params: { cwd: path.dirname(FIXTURE), mcpServers: [] } });
    const { sessionId } = (await next((m) => m.id === 2)).result;
    send({ id: 3, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "hi" }] } });
    const asked = await next((m) => m.method === "session/request_permission");
    send({ id: asked.id, result: { outcome: { outcome: "selected", optionId: "allow" } } });
    const idle = await next(
      (m) => m.params?.update?.sessionUpdate === "state_update" && m.params.update.state === "idle",
    );
    expect(idle.params.update.stopReason).toBe("end_turn");
  } finally {
    child.stdin.end();
    await exited;
  }
  expect(stderr).toBe("");
}, 30_000);
