/**
 * The probe against a hostile agent that asks for `sh -c 'id > FILE'` (issue 20), in memory:
 * lib/features/probe/probe through the relay's real answerer and services, only the transport faked.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_CLIENT_CAPABILITIES } from "../../lib/protocol/client-capabilities";
import type { Frame, JsonRpcId } from "../../lib/protocol/frame";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import type { Policies } from "../../lib/features/answers/policy";
import { type Driver, type ProbeOptions } from "../../lib/features/probe/probe";
import { runProbe } from "../../lib/features/protocols/registry";
import { RequestClient, type RequestFrame, type RequestOptions } from "../../lib/protocol/request-port";
import { AgentAnswerer } from "./agent-answerer";
import { ClientServices } from "./client-services";

type Msg = { id?: JsonRpcId; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

/** A relay in memory: frames in seq order, the agent's requests answered by a real AgentAnswerer. */
class MemoryRelay implements Driver {
  private readonly seq = new FrameSequencer();
  private readonly log: Frame[] = [];
  private readonly waiters = new Set<(f: Frame) => void>();
  private readonly asked = new Map<string, (m: Msg) => void>();
  private nextId = 1;
  private nextAgentId = 0;
  /** The probe's port, over this in-memory link. */
  private readonly client = new RequestClient({
    send: (frame) => ({ ok: true, value: this.toAgent(typeof frame === "string" ? frame : JSON.stringify(frame)).seq }),
    nextId: () => this.nextId++,
  });
  readonly answerer: AgentAnswerer;
  /** What the client sent the agent, parsed. */
  readonly sent: Msg[] = [];

  constructor(
    services: ClientServices,
    private readonly agent: (msg: Msg, relay: MemoryRelay) => Promise<object | undefined>,
  ) {
    this.answerer = new AgentAnswerer((message) => ({
      ok: true,
      seq: this.toAgent(typeof message === "string" ? message : JSON.stringify(message)).seq,
    }));
    this.answerer.reset(services);
  }

  private push(dir: "to-agent" | "from-agent", line: string): Frame {
    const frame = this.seq.line(dir, line);
    this.log.push(frame);
    if (frame.kind === "request" || frame.kind === "response") this.answerer.track(frame);
    this.client.received([frame]);
    for (const w of [...this.waiters]) w(frame);
    return frame;
  }

  private toAgent(line: string): Frame {
    const frame = this.push("to-agent", line);
    // The agent reads on a later tick, as over a pipe.
    setImmediate(() => void this.deliver(frame));
    return frame;
  }

  private async deliver(frame: Frame): Promise<void> {
    if (frame.kind === "invalid") return;
    const msg = frame.message as Msg;
    if (frame.kind === "response") return this.asked.get(JSON.stringify(msg.id))?.(msg);
    this.sent.push(msg);
    const answer = await this.agent(msg, this);
    if (msg.id !== undefined && answer)
      this.push("from-agent", JSON.stringify({ jsonrpc: "2.0", id: msg.id, ...answer }));
  }

  /** The agent's own request; resolves with the client's answer. */
  ask(method: string, params: Record<string, unknown>): Promise<Msg> {
    const id = `agent-${this.nextAgentId++}`;
    const answered = new Promise<Msg>((resolve) => this.asked.set(JSON.stringify(id), resolve));
    this.push("from-agent", JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return answered;
  }

  request(method: string, params: unknown, options?: RequestOptions) {
    return this.client.request(method, params, options);
  }
  sendRequest(frame: RequestFrame, options?: Pick<RequestOptions, "timeoutMs">) {
    return this.client.sendRequest(frame, options);
  }
  notify(method: string, params?: unknown) {
    return this.client.notify(method, params);
  }
  raw(line: string): void {
    this.toAgent(line);
  }
  /** The probe's own waits for silence are cut short: nothing here comes late. */
  waitForFrame(predicate: (f: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    return this.wait(predicate, Math.min(timeoutMs, 50));
  }
  private wait(predicate: (f: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    return new Promise((resolve) => {
      const w = (f: Frame) => {
        if (!predicate(f)) return;
        this.waiters.delete(w);
        clearTimeout(timer);
        resolve(f);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(w);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.add(w);
    });
  }
  frames(): readonly Frame[] {
    return this.log;
  }
  answerWith(policies: Policies): void {
    this.answerer.setPolicies(policies);
  }
}

/** Answers the probe, and in the tool turn runs `sh -c 'id > FILE'` through the client's terminal. */
const hostile =
  (file: string) =>
  async (msg: Msg, relay: MemoryRelay): Promise<object | undefined> => {
    switch (msg.method) {
      case "initialize":
        return { result: { protocolVersion: 1, agentInfo: { name: "hostile", version: "1" } } };
      case "session/new":
        return { result: { sessionId: "s1" } };
      case "session/prompt": {
        if (JSON.stringify(msg.params).includes("probe.txt")) {
          const created = await relay.ask("terminal/create", {
            sessionId: "s1",
            command: "sh",
            args: ["-c", `id > ${file}`],
          });
          const terminalId = (created.result as { terminalId?: string } | undefined)?.terminalId;
          if (terminalId) await relay.ask("terminal/wait_for_exit", { sessionId: "s1", terminalId });
        }
        return { result: { stopReason: "end_turn" } };
      }
      default:
        return msg.id === undefined ? undefined : { error: { code: -32601, message: "Method not found" } };
    }
  };

describe("the probe and an agent's terminal commands", () => {
  const ws = realpathSync(mkdtempSync(path.join(tmpdir(), "probe-terminals-")));
  afterAll(() => rmSync(ws, { recursive: true, force: true }));

  async function probe(name: string, options: Partial<ProbeOptions>) {
    const file = path.join(ws, name);
    const services = new ClientServices(ws, { dataDir: `${ws}-data`, killGraceMs: 200 });
    const relay = new MemoryRelay(services, hostile(file));
    try {
      const result = await runProbe(relay, {
        cwd: ws,
        timeoutMs: 2_000,
        clientCapabilities: DEFAULT_CLIENT_CAPABILITIES,
        ...options,
      });
      const advertised = relay.sent.filter((m) => m.method === "initialize").at(-1)?.params?.clientCapabilities;
      const row = result.rows.find((r) => r.check === "terminal commands run by the probe")!;
      return { ...result, file, advertised, row };
    } finally {
      await services.dispose();
    }
  }

  it("never runs a remote agent's command, even when terminals are asked for", async () => {
    const r = await probe("remote", { remote: true, terminals: true });
    expect(existsSync(r.file)).toBe(false);
    expect(r.advertised).toMatchObject({ terminal: false });
    expect(r.facts.answered).toContainEqual({
      method: "terminal/create",
      answer: expect.stringMatching(/^error -32601: Method not found: terminal\/create/),
    });
    expect(r.facts.commands).toEqual([]);
    expect(r.row.detail).toMatch(/does not run on this machine.*ran none, refused 1/);
  });

  it("runs no agent's command by default (terminals are opt-in)", async () => {
    const r = await probe("local-default", {});
    expect(existsSync(r.file)).toBe(false);
    expect(r.advertised).toMatchObject({ terminal: false });
    expect(r.row).toMatchObject({ outcome: "skipped", detail: "terminals off: not opted in, ran none, refused 1" });
  });

  it("opted in, runs a local agent's command in the throw-away workspace and reports what ran", async () => {
    const r = await probe("local-opted-in", { terminals: true });
    expect(existsSync(r.file)).toBe(true);
    expect(r.advertised).toMatchObject({ terminal: true });
    expect(r.facts.commands).toEqual([`sh -c 'id > ${r.file}'`]);
    expect(r.row).toMatchObject({ outcome: "answered" });
    expect(r.row.detail).toContain(`ran 1: sh -c 'id > ${r.file}'`);
  });
});
