/**
 * The client side of ACP through the relay with the real Gemini CLI: policies
 * (ask / auto / deny), fs requests served from the workspace; confinement with
 * a stub agent, which asks for what Gemini itself would refuse.
 */
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useGeminiRelay } from "../gemini-relay-setup";
import type { TestClient } from "../relay-harness";

const stub = path.resolve(import.meta.dirname, "../fixtures/stub-agent.mjs");
const g = useGeminiRelay({
  graceMs: 200,
  profiles: { stub: { command: process.execPath, args: [stub, "echo"], env: {} } },
});

async function session(fsCaps: boolean): Promise<{ c: TestClient; sessionId: string }> {
  const c = await g.client();
  await c.start();
  await c.initialize({ fs: { readTextFile: fsCaps, writeTextFile: fsCaps }, terminal: false });
  return { c, sessionId: await c.newSession(g.workspace) };
}

const writeTurn = (file: string) => [
  { parts: [{ functionCall: { name: "write_file", args: { file_path: file, content: "from the agent\n" } } }] },
  { parts: [{ text: "ok" }] },
];

async function prompt(c: TestClient, sessionId: string) {
  await c.send({
    jsonrpc: "2.0",
    id: 3,
    method: "session/prompt",
    params: { sessionId, prompt: [{ type: "text", text: "write" }] },
  });
}

describe("answering the agent's requests", () => {
  it("with fs capabilities: a missing file's read is answered with an error, never a null result", async () => {
    const { c, sessionId } = await session(true);
    const ack = await c.emit("policy:set", { policies: { "fs/read_text_file": "auto", "fs/write_text_file": "auto" } });
    expect(ack.policies["fs/read_text_file"]).toBe("auto");
    expect(ack.policies["session/request_permission"]).toBe("ask");
    const target = path.join(g.workspace, "missing.txt");
    g.api.script(...writeTurn(target));
    await prompt(c, sessionId);
    const read = await c.frame((f) => f.method === "fs/read_text_file" && f.kind === "request", "fs read");
    const readAnswer = await c.frame(
      (f) => f.dir === "to-agent" && f.kind === "response" && f.id === read.id,
      "read answer",
    );
    expect(readAnswer.message).toMatchObject({ error: { code: -32002, message: `Resource not found: ${target}` } });
    expect((readAnswer.message as any).result).toBeUndefined();
    await c.response(3);
    // Gemini CLI 0.61 turns the (plain-object) JSON-RPC error into "Error checking existing file"
    // and fails the tool instead of treating it as a new file: its normalizeFileSystemError only
    // looks at Error instances. The playground shows what the agent does; see docs/gemini-quirks.md.
    const failed = c.frames.find((f) => (f.message as any)?.params?.update?.status === "failed");
    expect(JSON.stringify(failed?.message)).toContain("Error checking existing file: Resource not found");
    expect(existsSync(target)).toBe(false);
  });

  it("with fs capabilities: an existing file is read, the write goes through the permission card and lands on disk", async () => {
    const { c, sessionId } = await session(true);
    await c.emit("policy:set", { policies: { "fs/read_text_file": "auto", "fs/write_text_file": "auto" } });
    const target = path.join(g.workspace, "notes.txt");
    writeFileSync(target, "before\n");
    g.api.script(...writeTurn(target));
    await prompt(c, sessionId);
    const read = await c.frame((f) => f.method === "fs/read_text_file" && f.kind === "request", "fs read");
    const readAnswer = await c.frame(
      (f) => f.dir === "to-agent" && f.kind === "response" && f.id === read.id,
      "read answer",
    );
    expect(readAnswer.message).toMatchObject({ result: { content: "before\n" } });
    const ask = await c.frame(
      (f) => f.method === "session/request_permission" && f.kind === "request",
      "permission card",
    );
    expect(readFileSync(target, "utf8")).toBe("before\n");
    await c.send({
      jsonrpc: "2.0",
      id: ask.id,
      result: { outcome: { outcome: "selected", optionId: "proceed_once" } },
    });
    await c.response(3);
    const write = c.frames.find((f) => f.method === "fs/write_text_file" && f.kind === "request")!;
    expect(write.message).toMatchObject({ params: { path: target, content: "from the agent\n" } });
    expect(
      c.frames.find((f) => f.dir === "to-agent" && f.kind === "response" && f.id === write.id)?.message,
    ).toMatchObject({ result: {} });
    expect(readFileSync(target, "utf8")).toBe("from the agent\n");
  });

  it("refuses a write outside the workspace: the relay's confinement, whatever the agent asks", async () => {
    // The stub agent sends exactly the request it is told to: Gemini refuses such paths on its own,
    // so only a stub tests that the relay does.
    const c = await g.client();
    await c.start({ profile: "stub" });
    // Served only because initialize advertised it.
    await c.initialize({ fs: { readTextFile: true, writeTextFile: true } });
    await c.emit("policy:set", { policies: { "fs/write_text_file": "auto" } });
    const write = async (id: string, file: string) => {
      await c.send({
        jsonrpc: "2.0",
        method: "stub/request",
        params: {
          id,
          method: "fs/write_text_file",
          params: { sessionId: "s", path: file, content: "from the agent\n" },
        },
      });
      return (await c.frame((f) => f.dir === "to-agent" && f.kind === "response" && f.id === id, `answer to ${id}`))
        .message;
    };
    const outside = path.join(g.base, "escaped.txt");
    const dotted = path.join(g.workspace, "..", "dotted.txt");
    const linked = path.join(g.workspace, "link");
    symlinkSync(g.base, linked);
    for (const [id, file] of [
      ["outside", outside],
      ["dotted", dotted],
      ["linked", path.join(linked, "linked.txt")],
    ] as const)
      expect(await write(id, file)).toMatchObject({
        error: { code: -32000, message: `path is outside the workspace: ${file}` },
      });
    expect(readdirSync(g.base).sort()).toEqual(["ws"]);
    // The same request inside the workspace is carried out: the refusals above are the confinement's.
    const inside = path.join(g.workspace, "inside.txt");
    expect(await write("inside", inside)).toMatchObject({ result: {} });
    expect(readFileSync(inside, "utf8")).toBe("from the agent\n");
  });

  it("auto answers permissions with the allow-once option; deny answers an error", async () => {
    const { c, sessionId } = await session(false);
    await c.emit("policy:set", { policies: { "session/request_permission": "auto" } });
    const target = path.join(g.workspace, "auto.txt");
    g.api.script(...writeTurn(target));
    await prompt(c, sessionId);
    await c.response(3);
    const answer = c.frames.find((f) => f.dir === "to-agent" && f.method === "session/request_permission")!;
    expect(answer.message).toMatchObject({ result: { outcome: { outcome: "selected", optionId: "proceed_once" } } });
    expect(readFileSync(target, "utf8")).toBe("from the agent\n");
    // An answer given at once still follows its request, on the wire as in seq.
    expect(c.frames.map((f) => f.seq)).toEqual(c.frames.map((_, i) => i + 1));
    const request = c.frames.find((f) => f.dir === "from-agent" && f.kind === "request" && f.id === answer.id)!;
    expect(answer.seq).toBe(request.seq + 1);

    const d = await session(false);
    await d.c.emit("policy:set", { policies: { "session/request_permission": "deny" } });
    g.api.script(...writeTurn(path.join(g.workspace, "denied.txt")));
    await prompt(d.c, d.sessionId);
    await d.c.response(3);
    const denied = d.c.frames.find((f) => f.dir === "to-agent" && f.method === "session/request_permission")!;
    expect(denied.message).toMatchObject({ error: { code: -32000 } });
    expect(d.c.frames.map((f) => f.seq)).toEqual(d.c.frames.map((_, i) => i + 1));
    expect(existsSync(path.join(g.workspace, "denied.txt"))).toBe(false);
  });

  it("ask mode: agent:serve carries out a pending fs request on the user's word", async () => {
    const { c, sessionId } = await session(true);
    writeFileSync(path.join(g.workspace, "asked.txt"), "old\n");
    g.api.script(...writeTurn(path.join(g.workspace, "asked.txt")));
    await prompt(c, sessionId);
    const read = await c.frame((f) => f.method === "fs/read_text_file" && f.kind === "request", "fs read");
    expect(c.frames.some((f) => f.dir === "to-agent" && f.id === read.id)).toBe(false);
    expect((await c.emit("agent:serve", { id: 12345 })).ok).toBe(false);
    const served = await c.emit("agent:serve", { id: read.id });
    expect(served.ok).toBe(true);
    expect((await c.emit("agent:serve", { id: read.id })).error.message).toMatch(/no pending agent request/);
    // Gemini reads the file again before writing: let everything through from here.
    await c.emit("policy:set", {
      policies: { "session/request_permission": "auto", "fs/read_text_file": "auto", "fs/write_text_file": "auto" },
    });
    await c.response(3);
    expect(readFileSync(path.join(g.workspace, "asked.txt"), "utf8")).toBe("from the agent\n");
  });
});
