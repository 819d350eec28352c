/**
 * The app-server probe against an in-memory server that answers as Codex 0.169 does (the answers
 * captured from it: "Not initialized", "unknown variant", "no active turn to interrupt"), and
 * against ones that break a rule each.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "../../../protocol/frame";
import { FrameSequencer } from "../../../protocol/frame-sequencer";
import { RequestClient, type RequestFrame, type RequestOptions } from "../../../protocol/request-port";
import { type Driver } from "../../probe/probe";
import { runProbe } from "../registry";
import type { Policies } from "../../answers/policy";

type Msg = { id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown };

interface Quirks {
  /** Answers requests before initialize. */
  lenient?: boolean;
  /** Stops answering after a malformed line. */
  diesOnMalformed?: boolean;
  /** Asks no approval (the model chose not to). */
  noApproval?: boolean;
  /** Ends turn/interrupt's turn "completed". */
  ignoresInterrupt?: boolean;
}

/** A scripted app-server behind the probe's port; no "jsonrpc" either way. */
class FakeAppServer implements Driver {
  private readonly seq = new FrameSequencer(undefined, "codex-app-server");
  private readonly log: Frame[] = [];
  private readonly waiters = new Set<(f: Frame) => void>();
  private initialized = false;
  private dead = false;
  private turns = 0;
  private readonly running = new Map<string, "approval" | "interruptible">();
  private nextId = 1;
  policies: Policies = {};
  private readonly client = new RequestClient({
    send: (frame) => this.write(typeof frame === "string" ? frame : JSON.stringify(frame)),
    nextId: () => this.nextId++,
  });

  constructor(private readonly quirks: Quirks = {}) {}

  private push(dir: "to-agent" | "from-agent", raw: string): Frame {
    const frame = this.seq.line(dir, raw);
    this.log.push(frame);
    this.client.received([frame]);
    for (const w of [...this.waiters]) w(frame);
    return frame;
  }

  private say(message: object) {
    setTimeout(() => this.push("from-agent", JSON.stringify(message)), 1);
  }

  private write(raw: string) {
    const f = this.push("to-agent", raw);
    if (!this.dead) this.handle(raw);
    return { ok: true as const, value: f.seq };
  }

  private handle(raw: string) {
    let m: Msg;
    try {
      m = JSON.parse(raw) as Msg;
    } catch {
      if (this.quirks.diesOnMalformed) this.dead = true;
      return;
    }
    if (m.method === undefined) return this.answered(m);
    if (m.id === undefined) return;
    const reply = (result: unknown) => this.say({ id: m.id, result });
    const refuse = (message: string) => this.say({ id: m.id, error: { code: -32600, message } });
    if (m.method === "initialize") {
      if (this.initialized) return refuse("Already initialized");
      this.initialized = true;
      return reply({ userAgent: "codex_test/0.169.0 (Linux)", platformOs: "linux" });
    }
    if (!this.initialized && !this.quirks.lenient) return refuse("Not initialized");
    if (m.method === "thread/list") return reply({ data: [] });
    if (m.method === "thread/start") {
      reply({ thread: { id: "th-1", turns: [] } });
      return this.say({ method: "thread/started", params: { thread: { id: "th-1" } } });
    }
    if (m.method === "turn/start") return this.turn(m);
    if (m.method === "turn/interrupt") {
      const turnId = String(m.params?.turnId);
      if (!this.running.has(turnId)) return refuse("no active turn to interrupt");
      reply({});
      return this.end(turnId, this.quirks.ignoresInterrupt ? "completed" : "interrupted");
    }
    refuse(`Invalid request: unknown variant \`${m.method}\``);
  }

  private turn(m: Msg) {
    const turnId = `turn-${++this.turns}`;
    const turn = { id: turnId, status: "inProgress", items: [] };
    this.say({ id: m.id, result: { turn } });
    this.say({ method: "turn/started", params: { threadId: "th-1", turn } });
    const text = JSON.stringify(m.params?.input);
    if (text.includes("escalated") && !this.quirks.noApproval) {
      this.running.set(turnId, "approval");
      this.say({
        id: 0,
        method: "item/commandExecution/requestApproval",
        params: { threadId: "th-1", turnId, itemId: "call_1", command: "echo probe > probe.txt" },
      });
    } else if (text.includes("Count")) this.running.set(turnId, "interruptible");
    else this.end(turnId, "completed");
  }

  private answered(m: Msg) {
    const waiting = [...this.running].find(([, kind]) => kind === "approval");
    if (!waiting || m.id !== 0) return;
    this.say({ method: "serverRequest/resolved", params: { threadId: "th-1", requestId: 0 } });
    this.end(waiting[0], "completed");
  }

  private end(turnId: string, status: string) {
    this.running.delete(turnId);
    this.say({ method: "turn/completed", params: { threadId: "th-1", turn: { id: turnId, status } } });
  }

  request(method: string, params: unknown, options: RequestOptions = {}) {
    return this.client.request(method, params, options);
  }
  sendRequest(frame: RequestFrame, options: Pick<RequestOptions, "timeoutMs"> = {}) {
    return this.client.sendRequest(frame, options);
  }
  notify(method: string, params?: unknown) {
    return Promise.resolve(this.write(JSON.stringify(params === undefined ? { method } : { method, params })));
  }
  waitForFrame(match: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    return this.client.waitForFrame(match, timeoutMs);
  }
  raw(line: string): void {
    this.write(line);
  }
  frames() {
    return this.log;
  }
  answerWith(policies: Policies): void {
    this.policies = policies;
  }
}

async function probe(quirks?: Quirks) {
  const server = new FakeAppServer(quirks);
  const result = await runProbe(server, { cwd: "/ws", protocol: "codex-app-server", timeoutMs: 40 });
  const status = Object.fromEntries(result.conformance.parts[0]!.requirements.map((r) => [r.id, r.status]));
  return { server, result, status };
}

describe("the app-server probe", () => {
  it("passes a server that answers as Codex does, and leaves the agent's requests to itself", async () => {
    const { server, result, status } = await probe();
    expect(result.conformance.verdict).toBe("CONFORMANT");
    expect(Object.values(status).every((s) => s === "pass")).toBe(true);
    expect(result.agent).toEqual({ name: "codex app-server", version: "0.169.0" });
    expect(result.facts.answered).toEqual([{ method: "item/commandExecution/requestApproval", answer: "accept" }]);
    // Every answerable request waits for the probe (no policy answers an approval for it).
    expect(new Set(Object.values(server.policies))).toEqual(new Set(["ask"]));
    // The approval's answer, written by the probe as the app-server writes (no "jsonrpc").
    const answer = server.frames().find((f) => f.dir === "to-agent" && f.kind === "response" && f.id === 0);
    expect(answer?.raw).toBe('{"id":0,"result":{"decision":"accept"}}');
  });

  it("fails a server that answers before initialize", async () => {
    const { status, result } = await probe({ lenient: true });
    expect(status["ASP-INIT-002"]).toBe("fail");
    expect(result.conformance.verdict).toBe("NOT CONFORMANT");
  });

  it("fails a server that stops answering after a malformed line", async () => {
    const { status } = await probe({ diesOnMalformed: true });
    expect(status["ASP-RPC-002"]).toBe("fail");
  });

  it("fails an interrupt that does not end the turn interrupted", async () => {
    const { status } = await probe({ ignoresInterrupt: true });
    expect(status["ASP-TURN-002"]).toBe("fail");
  });

  it("skips the approval round trip when none is asked, and the verdict stands", async () => {
    const { status, result } = await probe({ noApproval: true });
    expect(status["ASP-APPROVAL-001"]).toBe("skipped");
    expect(result.conformance.verdict).toBe("CONFORMANT");
    expect(result.rows.find((r) => r.check.startsWith("approval"))).toMatchObject({ outcome: "inconclusive" });
  });
});
