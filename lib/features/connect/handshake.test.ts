import { PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { CLIENT_INFO } from "../../protocol/client-capabilities";
import { memoryAgent } from "../../protocol/memory-agent";
import { ACP_V1, initializeAgent, initializeParams, runHandshake } from "./handshake";

const CAPS = { fs: { readTextFile: true, writeTextFile: false }, terminal: false };
const INIT = { result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } };

describe("the client handshake over the request port", () => {
  it("initializes with the one clientInfo and the caller's capabilities, then opens a session in the cwd", async () => {
    const agent = memoryAgent({
      initialize: () => INIT,
      "session/new": () => ({ result: { sessionId: "s1", modes: null } }),
    });
    const end = await runHandshake({ port: agent.port }, { cwd: "/w", clientCapabilities: CAPS });
    expect(end).toEqual({
      progress: { step: "ready", requestedVersion: 1, negotiatedVersion: 1, sessionId: "s1" },
      initialize: INIT.result,
      session: { sessionId: "s1", modes: null },
    });
    expect(agent.sent()).toEqual([
      ["initialize", { protocolVersion: 1, clientCapabilities: CAPS, clientInfo: CLIENT_INFO }],
      ["session/new", { cwd: "/w", mcpServers: [] }],
    ]);
  });

  it("asks for the SDK's protocol version without importing the SDK", () => {
    expect(ACP_V1).toBe(PROTOCOL_VERSION);
    expect(initializeParams({ clientCapabilities: {} }).protocolVersion).toBe(PROTOCOL_VERSION);
  });

  it("an agent initialized before (the warm pool) is not initialized again", async () => {
    const agent = memoryAgent({ "session/new": () => ({ result: { sessionId: "s" } }) });
    const end = await runHandshake(
      { port: agent.port },
      { cwd: "/w", clientCapabilities: CAPS, initialized: { protocolVersion: 1 } },
    );
    expect(end.progress).toMatchObject({ step: "ready", sessionId: "s" });
    expect(agent.sent().map(([m]) => m)).toEqual(["session/new"]);
  });

  it("initialize alone, with the pool's own id; the agent's error and its silence are both said", async () => {
    const agent = memoryAgent({ initialize: () => INIT });
    expect(await initializeAgent(agent.port, { clientCapabilities: CAPS, id: "pool-initialize" })).toEqual({
      ok: true,
      value: INIT.result,
    });
    expect(agent.frames[0]!.id).toBe("pool-initialize");
    const refusing = memoryAgent({ initialize: () => ({ error: { code: -32603, message: "boom", data: "why" } }) });
    expect(await initializeAgent(refusing.port, { clientCapabilities: CAPS })).toEqual({
      ok: false,
      error: "initialize failed: boom (-32603): why",
    });
    const silent = memoryAgent({ initialize: () => "silent" });
    expect(await initializeAgent(silent.port, { clientCapabilities: CAPS, timeoutMs: 20 })).toEqual({
      ok: false,
      error: "initialize failed: no answer within 0 s (see its frames and its stderr)",
    });
    // The port's own timer lets go of the request too.
    await new Promise((r) => setTimeout(r, 30));
    expect(silent.port.pending).toBe(0);
  });

  it("authenticates when session/new asks for it, with the method the chooser picks", async () => {
    let asked = 0;
    const agent = memoryAgent({
      initialize: () => ({ result: { protocolVersion: 1, authMethods: [{ id: "key", name: "Key" }] } }),
      authenticate: () => ({ result: {} }),
      "session/new": () =>
        asked++ === 0
          ? { error: { code: -32000, message: "Authentication required" } }
          : { result: { sessionId: "s" } },
    });
    const end = await runHandshake(
      { port: agent.port, chooseAuth: () => Promise.resolve({ type: "authenticate", methodId: "key" }) },
      { cwd: "/w", clientCapabilities: CAPS },
    );
    expect(end.progress).toMatchObject({ step: "ready", authMethodId: "key", authenticated: true });
    expect(agent.sent().map(([m]) => m)).toEqual(["initialize", "session/new", "authenticate", "session/new"]);
  });
});
