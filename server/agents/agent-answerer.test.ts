import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_CLIENT_CAPABILITIES } from "../../lib/protocol/client-capabilities";
import type { Frame } from "../../lib/protocol/frame";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import { UNKNOWN_METHODS } from "../../lib/contracts/policies";
import type { ProtocolName } from "../../lib/protocol/protocols";
import { AgentAnswerer } from "./agent-answerer";
import { ClientServices } from "./client-services";

/**
 * An answerer wired to a sequencer in memory: what it sends comes back as a frame, as on the relay.
 * The client's initialize advertises `caps` first (null: no initialize is sent).
 */
function wired(
  services?: Partial<ClientServices>,
  caps: object | null = DEFAULT_CLIENT_CAPABILITIES,
  protocol?: ProtocolName,
) {
  const seq = new FrameSequencer(undefined, protocol);
  const sent: Frame[] = [];
  const answerer = new AgentAnswerer((message) => {
    const frame = seq.line("to-agent", typeof message === "string" ? message : JSON.stringify(message));
    sent.push(frame);
    answerer.track(frame);
    return { ok: true, seq: frame.seq };
  });
  answerer.reset(
    { handle: () => Promise.resolve({ content: "hello" }), ...services } as unknown as ClientServices,
    protocol,
  );
  const fromAgent = (message: object) => {
    const frame = seq.line("from-agent", JSON.stringify({ jsonrpc: "2.0", ...message }));
    answerer.track(frame);
    return frame;
  };
  const initialize = (clientCapabilities: object) =>
    answerer.track(
      seq.line(
        "to-agent",
        JSON.stringify({
          jsonrpc: "2.0",
          id: "init",
          method: "initialize",
          params: { protocolVersion: 1, clientCapabilities },
        }),
      ),
    );
  if (caps) initialize(caps);
  return { answerer, sent, fromAgent, initialize };
}

const read = (id: number) => ({ id, method: "fs/read_text_file", params: { sessionId: "s", path: "/w/a" } });

describe("agent answerer", () => {
  it("asks by default: nothing is sent until the user serves the request", async () => {
    const { answerer, sent, fromAgent } = wired();
    fromAgent(read(0));
    expect(sent).toEqual([]);
    expect(await answerer.serve(0)).toMatchObject({ ok: true });
    expect(JSON.parse(sent[0]!.raw)).toEqual({ jsonrpc: "2.0", id: 0, result: { content: "hello" } });
    expect(sent[0]!.requestSeq).toBe(2);
    // Answered: a second serve finds nothing pending.
    expect(await answerer.serve(0)).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
  });

  it("a deny policy answers at once with an error; switching to auto serves what is waiting", async () => {
    const { answerer, sent, fromAgent } = wired();
    answerer.setPolicies({ "fs/write_text_file": "deny" });
    fromAgent({ id: 1, method: "fs/write_text_file", params: { sessionId: "s", path: "/w/a", content: "x" } });
    expect(JSON.parse(sent[0]!.raw)).toMatchObject({ id: 1, error: { code: expect.any(Number) } });
    fromAgent(read(2));
    expect(sent).toHaveLength(1);
    answerer.setPolicies({ "fs/read_text_file": "auto" });
    await new Promise((r) => setTimeout(r, 0));
    expect(sent.map((f) => JSON.parse(f.raw).id)).toEqual([1, 2]);
  });

  it("a response the browser sent closes the request it names by requestSeq", async () => {
    const { answerer, fromAgent } = wired();
    fromAgent(read(3));
    // The browser answers by hand; the relay pairs the response with seq 2 (seq 1 is the initialize).
    const seq = new FrameSequencer();
    seq.line("to-agent", JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params: {} }));
    seq.line("from-agent", JSON.stringify({ jsonrpc: "2.0", ...read(3) }));
    answerer.track(seq.line("to-agent", JSON.stringify({ jsonrpc: "2.0", id: 3, result: { content: "" } })));
    expect(await answerer.serve(3)).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
  });

  it("permission requests are answered with a permission outcome under auto, never by services", async () => {
    const { answerer, sent, fromAgent } = wired({ handle: () => Promise.reject(new Error("not for permissions")) });
    answerer.setPolicies({ "session/request_permission": "auto" });
    fromAgent({
      id: 4,
      method: "session/request_permission",
      params: {
        sessionId: "s",
        toolCall: { toolCallId: "t" },
        options: [{ optionId: "ok", kind: "allow_once", name: "Allow" }],
      },
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(JSON.parse(sent[0]!.raw).result.outcome).toMatchObject({ outcome: "selected", optionId: "ok" });
  });

  it("a malformed permission request under auto gets -32602 naming the field, not an outcome", async () => {
    const { answerer, sent, fromAgent } = wired();
    answerer.setPolicies({ "session/request_permission": "auto" });
    fromAgent({ id: 5, method: "session/request_permission", params: { sessionId: "s", toolCall: {}, options: "x" } });
    await new Promise((r) => setTimeout(r, 0));
    const { error } = JSON.parse(sent[0]!.raw) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("params.toolCall.toolCallId");
    expect(error.message).toContain("params.options");
  });
});

describe("agent answerer: methods outside ACP", () => {
  it("answers a request that is neither a client method nor an extension with -32601 by default", () => {
    const { sent, fromAgent } = wired();
    fromAgent({ id: 7, method: "craft/drainMidTurnQueue", params: {} });
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.raw)).toMatchObject({ id: 7, error: { code: -32601 } });
    expect(JSON.parse(sent[0]!.raw).error.message).toContain("craft/drainMidTurnQueue");
  });

  it("leaves extensions and known client methods to their policies", () => {
    const { sent, fromAgent } = wired();
    fromAgent({ id: 8, method: "_zed/custom", params: {} });
    fromAgent(read(9));
    expect(sent).toEqual([]);
  });

  it('under "ask" an unknown method waits for the user, and switching back refuses it', () => {
    const { answerer, sent, fromAgent } = wired();
    answerer.setPolicies({ [UNKNOWN_METHODS]: "ask" });
    fromAgent({ id: 10, method: "craft/drainMidTurnQueue" });
    expect(sent).toEqual([]);
    answerer.setPolicies({ [UNKNOWN_METHODS]: "deny" });
    expect(JSON.parse(sent[0]!.raw)).toMatchObject({ id: 10, error: { code: -32601 } });
  });
});

describe("agent answerer: only what the client advertised", () => {
  const auto = {
    "fs/read_text_file": "auto",
    "fs/write_text_file": "auto",
    "terminal/create": "auto",
    "terminal/output": "auto",
  } as const;
  const create = (id: number, command = "true") => ({
    id,
    method: "terminal/create",
    params: { sessionId: "s", command, args: [] },
  });
  const errorOf = (f: Frame) => (JSON.parse(f.raw) as { error?: { code: number; message: string } }).error;

  it("refuses fs and terminal requests before any initialize, under every policy, without serving them", async () => {
    const handle = vi.fn(() => Promise.resolve({ content: "secret" }));
    const { answerer, sent, fromAgent } = wired({ handle }, null);
    answerer.setPolicies(auto);
    fromAgent(read(1));
    fromAgent(create(2));
    answerer.setPolicies({ "fs/read_text_file": "ask" });
    fromAgent(read(3));
    await new Promise((r) => setTimeout(r, 0));
    expect(sent.map((f) => errorOf(f)?.code)).toEqual([-32601, -32601, -32601]);
    expect(errorOf(sent[0]!)!.message).toContain("clientCapabilities.fs.readTextFile");
    expect(errorOf(sent[1]!)!.message).toContain("clientCapabilities.terminal");
    expect(handle).not.toHaveBeenCalled();
  });

  it("serves what initialize advertised and refuses the rest; a later initialize and a new agent count", async () => {
    const handle = vi.fn(() => Promise.resolve({ content: "x" }));
    const { answerer, sent, fromAgent, initialize } = wired(
      { handle },
      {
        fs: { readTextFile: true, writeTextFile: false },
        terminal: false,
      },
    );
    answerer.setPolicies(auto);
    fromAgent(read(1));
    fromAgent({ id: 2, method: "fs/write_text_file", params: { sessionId: "s", path: "/w/a", content: "x" } });
    fromAgent(create(3));
    fromAgent({ id: 4, method: "terminal/output", params: { sessionId: "s", terminalId: "t" } });
    await new Promise((r) => setTimeout(r, 0));
    const byId = new Map(sent.map((f) => [f.id, f]));
    expect(JSON.parse(byId.get(1)!.raw)).toMatchObject({ result: { content: "x" } });
    expect(errorOf(byId.get(2)!)).toMatchObject({ code: -32601, message: expect.stringContaining("fs.writeTextFile") });
    expect(errorOf(byId.get(3)!)).toMatchObject({ code: -32601 });
    expect(errorOf(byId.get(4)!)).toMatchObject({ code: -32601 });
    expect(handle).toHaveBeenCalledTimes(1);

    // A non-boolean "yes" is not true; the last initialize is what the agent was told.
    initialize({ fs: { readTextFile: "yes" }, terminal: true });
    fromAgent(read(5));
    fromAgent(create(6));
    await new Promise((r) => setTimeout(r, 0));
    expect(errorOf(sent.find((f) => f.id === 5)!)).toMatchObject({ code: -32601 });
    expect(errorOf(sent.find((f) => f.id === 6)!)).toBeUndefined();

    // A new agent starts with nothing advertised.
    answerer.reset({ handle } as unknown as ClientServices);
    fromAgent(create(7));
    expect(errorOf(sent.find((f) => f.id === 7)!)).toMatchObject({ code: -32601 });
    expect(handle).toHaveBeenCalledTimes(2);
  });

  it("while a re-run answers as recorded, a refused request is left to the recording but never served", async () => {
    const handle = vi.fn(() => Promise.resolve({}));
    const { answerer, sent, fromAgent } = wired({ handle }, { fs: { readTextFile: false }, terminal: false });
    answerer.suspended = true;
    answerer.setPolicies(auto);
    fromAgent(create(1));
    expect(sent).toEqual([]);
    // The user's "do it" is refused with the error, not carried out.
    expect(await answerer.serve(1)).toMatchObject({ ok: true });
    expect(errorOf(sent[0]!)).toMatchObject({ code: -32601 });
    expect(handle).not.toHaveBeenCalled();
  });
});

describe("agent answerer: the hostile terminal request (issue 20)", () => {
  const ws = realpathSync(mkdtempSync(path.join(tmpdir(), "answerer-caps-")));
  afterAll(() => rmSync(ws, { recursive: true, force: true }));

  /** The agent asks for `sh -c 'id > FILE'` under "auto", as the remote agent under probe did. */
  async function attack(caps: object, file: string) {
    const services = new ClientServices(ws, { dataDir: `${ws}-data`, killGraceMs: 200 });
    const { answerer, sent, fromAgent } = wired(undefined, caps);
    answerer.reset(services);
    // reset() forgets the initialize: advertise again, as a new agent's client would.
    answerer.track(
      new FrameSequencer().line(
        "to-agent",
        JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: 1, clientCapabilities: caps },
        }),
      ),
    );
    answerer.setPolicies({ "terminal/create": "auto", "terminal/wait_for_exit": "auto" });
    fromAgent({
      id: 1,
      method: "terminal/create",
      params: { sessionId: "s", command: "sh", args: ["-c", `id > ${file}`] },
    });
    await vi.waitFor(() => expect(sent.some((f) => f.id === 1)).toBe(true));
    const created = JSON.parse(sent.find((f) => f.id === 1)!.raw) as {
      result?: { terminalId: string };
      error?: unknown;
    };
    if (created.result) {
      fromAgent({
        id: 2,
        method: "terminal/wait_for_exit",
        params: { sessionId: "s", terminalId: created.result.terminalId },
      });
      await vi.waitFor(() => expect(sent.some((f) => f.id === 2)).toBe(true));
    }
    await services.dispose();
    return created;
  }

  it("is refused and nothing runs when the client advertised terminal: false", async () => {
    const file = path.join(ws, "pwned-false");
    const created = await attack({ fs: { readTextFile: true, writeTextFile: true }, terminal: false }, file);
    expect(created.error).toMatchObject({ code: -32601 });
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(file)).toBe(false);
  });

  it("runs (the same request, so the refusal above is the capability's) when terminal: true was advertised", async () => {
    const file = path.join(ws, "ran-true");
    const created = await attack({ terminal: true }, file);
    expect(created.result).toMatchObject({ terminalId: expect.any(String) });
    expect(existsSync(file)).toBe(true);
  });

  describe("the agent's $/cancel_request", () => {
    const cancel = (requestId: unknown) => ({ method: "$/cancel_request", params: { requestId } });

    it("a request waiting for the user is answered -32800 and never carried out, even when served or auto later", async () => {
      const handle = vi.fn(() => Promise.resolve({ content: "hello" }));
      const { answerer, sent, fromAgent } = wired({ handle });
      fromAgent(read(4));
      fromAgent(cancel(4));
      expect(sent.map((f) => JSON.parse(f.raw) as unknown)).toEqual([
        {
          jsonrpc: "2.0",
          id: 4,
          error: { code: -32800, message: "Request cancelled", data: { requestId: 4, reason: expect.any(String) } },
        },
      ]);
      expect(await answerer.serve(4)).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
      answerer.setPolicies({ "fs/read_text_file": "auto" });
      await Promise.resolve();
      expect(handle).not.toHaveBeenCalled();
      expect(sent).toHaveLength(1);
    });

    it("a request being carried out is answered -32800 now, and its own result is dropped", async () => {
      let finish!: (v: unknown) => void;
      const handle = vi.fn(() => new Promise((resolve) => (finish = resolve)));
      const { answerer, sent, fromAgent } = wired({ handle });
      answerer.setPolicies({ "fs/read_text_file": "auto" });
      fromAgent(read(5));
      expect(handle).toHaveBeenCalledTimes(1);
      fromAgent(cancel(5));
      expect(JSON.parse(sent[0]!.raw)).toMatchObject({ id: 5, error: { code: -32800 } });
      finish({ content: "late" });
      await new Promise((r) => setTimeout(r, 0));
      expect(sent).toHaveLength(1);
    });

    it("refuses the client's later answer to a withdrawn request, until the agent uses the id again", () => {
      const { answerer, fromAgent } = wired();
      const answer = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: "late" } });
      expect(answerer.refusal(answer(4))).toBeUndefined();
      fromAgent(read(4));
      fromAgent(cancel(4));
      expect(answerer.refusal(answer(4))).toMatchObject({
        code: "invalid_payload",
        message: expect.stringMatching(/4/),
      });
      // Only answers to that id: another id, "4" as a string, a request with id 4, a line that is not JSON.
      expect(answerer.refusal(answer(5))).toBeUndefined();
      expect(answerer.refusal(answer("4"))).toBeUndefined();
      expect(answerer.refusal(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "session/new" }))).toBeUndefined();
      expect(answerer.refusal("{not json")).toBeUndefined();
      fromAgent(read(4));
      expect(answerer.refusal(answer(4))).toBeUndefined();
    });

    it("ignores a cancel for an id with nothing pending, a malformed one, and the client's own cancels", () => {
      const { sent, fromAgent, answerer } = wired();
      fromAgent(read(6));
      fromAgent(cancel(7));
      fromAgent(cancel({ id: 6 }));
      fromAgent({ id: 9, method: "$/cancel_request", params: { requestId: 6 } });
      // The client withdrawing its own request (to-agent) is not the answerer's business.
      const seq = new FrameSequencer();
      answerer.track(
        seq.line("to-agent", JSON.stringify({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 6 } })),
      );
      // Sent as a request it is no cancel: refused like any method outside ACP, request 6 still waits.
      expect(sent.map((f) => [f.id, (f.message as { error?: { code: number } }).error?.code])).toEqual([[9, -32601]]);
    });
  });

  const approval = (id: number) => ({
    id,
    method: "item/commandExecution/requestApproval",
    params: { threadId: "t", turnId: "u", itemId: "c", command: "ls" },
  });

  it("answers Codex app-server approvals by policy: ask waits, auto accepts, deny declines, serving refuses", async () => {
    const { answerer, sent, fromAgent } = wired(undefined, {}, "codex-app-server");
    fromAgent(approval(0));
    expect(sent).toEqual([]);
    expect(await answerer.serve(0)).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
    answerer.setPolicies({ "item/commandExecution/requestApproval": "auto" });
    expect(JSON.parse(sent[0]!.raw)).toMatchObject({ id: 0, result: { decision: "accept" } });
    answerer.setPolicies({ "item/commandExecution/requestApproval": "deny" });
    fromAgent(approval(1));
    expect(JSON.parse(sent[1]!.raw)).toMatchObject({ id: 1, result: { decision: "decline" } });
    expect(sent).toHaveLength(2);
  });

  it("answers by the running agent's protocol: another protocol's request is a stranger to it", () => {
    const permission = {
      id: 3,
      method: "session/request_permission",
      params: {
        sessionId: "s",
        toolCall: { toolCallId: "t" },
        options: [{ optionId: "y", name: "Yes", kind: "allow_once" }],
      },
    };
    // An ACP agent asking for a Codex approval: not accepted, refused as a method outside its protocol.
    const acp = wired();
    acp.answerer.setPolicies({
      "item/commandExecution/requestApproval": "auto",
      "session/request_permission": "auto",
      [UNKNOWN_METHODS]: "deny",
    });
    acp.fromAgent(approval(0));
    expect(JSON.parse(acp.sent[0]!.raw)).toMatchObject({ id: 0, error: { code: -32601 } });
    // A Codex agent asking for ACP's permission: the same.
    const codex = wired(undefined, {}, "codex-app-server");
    codex.answerer.setPolicies({ "session/request_permission": "auto", [UNKNOWN_METHODS]: "deny" });
    codex.fromAgent(permission);
    expect(JSON.parse(codex.sent[0]!.raw)).toMatchObject({ id: 3, error: { code: -32601 } });
    // Each in its own protocol is answered by the policy.
    acp.fromAgent(permission);
    expect(JSON.parse(acp.sent[1]!.raw)).toMatchObject({ id: 3, result: { outcome: { outcome: "selected" } } });
  });
});
