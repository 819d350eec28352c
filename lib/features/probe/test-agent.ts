/**
 * A scripted agent for the probe's tests (lib/features/probe/probe.test.ts, probe/kit-steps.test.ts):
 * the probe's Driver over an in-memory link, answering by a script at once. Test support only.
 */
import type { Frame, JsonRpcId } from "../../protocol/frame";
import { RequestClient, type RequestFrame, type RequestOptions } from "../../protocol/request-port";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { autoPermission, type Policies } from "../answers/policy";
import type { Driver } from "./context";

let ids = 0;
/** A fresh id shaped like a UUID (as agents' session and tool call ids are). */
const uuid = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`;

export type Msg = {
  id?: JsonRpcId;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
};
export interface Script {
  /** Answers a request (undefined: no answer), may emit frames before through `emit`. */
  handle(msg: Msg, agent: FakeAgent): unknown;
}

/**
 * A scripted agent behind the probe's port: the one RequestClient
 * (lib/protocol/request-port.ts) over an in-memory link, with the relay's
 * answering by policy. Waits for frames are capped at 50 ms: the script answers at once.
 */
export class FakeAgent implements Driver {
  private seq = new FrameSequencer();
  private log: Frame[] = [];
  private waiters = new Set<(f: Frame) => void>();
  private policies: Policies = {};
  private pending = new Map<string, (result: unknown) => void>();
  private nextAgentId = 0;
  private nextId = 1;
  readonly sent: Msg[] = [];
  private readonly client = new RequestClient({
    send: (frame) => {
      const raw = typeof frame === "string" ? frame : JSON.stringify(frame);
      const f = this.push("to-agent", raw);
      void this.receive(raw);
      return { ok: true, value: f.seq };
    },
    nextId: () => `r${this.nextId++}`,
  });
  constructor(private readonly script: Script) {}

  private push(dir: "to-agent" | "from-agent", message: unknown) {
    const frame = this.seq.line(dir, typeof message === "string" ? message : JSON.stringify(message));
    this.log.push(frame);
    this.client.received([frame]);
    for (const w of [...this.waiters]) w(frame);
    return frame;
  }
  emit(message: Record<string, unknown>) {
    this.push("from-agent", { jsonrpc: "2.0", ...message });
  }
  update(sessionId: string, update: Record<string, unknown>) {
    this.emit({ method: "session/update", params: { sessionId, update } });
  }
  /** An agent request; resolves with the client's answer (by policy, as the relay gives it). */
  ask(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.nextAgentId++;
    const answered = new Promise<unknown>((resolve) => this.pending.set(JSON.stringify(id), resolve));
    this.emit({ id, method, params });
    if (this.policies[method] === "auto") {
      const result =
        method === "session/request_permission" ? autoPermission(params as never) : { content: "", exitCode: 0 };
      this.push("to-agent", { jsonrpc: "2.0", id, result });
      this.pending.get(JSON.stringify(id))!(result);
    }
    return answered;
  }
  private async receive(raw: string) {
    // The agent reads on a later tick, as over a pipe.
    await new Promise<void>((resolve) => setTimeout(() => resolve(), 0));
    let msg: Msg;
    try {
      msg = JSON.parse(raw) as Msg;
    } catch {
      return this.script.handle({ method: "<malformed>" }, this);
    }
    this.sent.push(msg);
    const result = await this.script.handle(msg, this);
    if (msg.id !== undefined && result !== undefined) this.emit({ id: msg.id, ...(result as object) });
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
  raw(line: string) {
    this.push("to-agent", line);
    void this.receive(line);
  }
  waitForFrame(match: (f: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    return this.client.waitForFrame(match, Math.min(timeoutMs, 50));
  }
  /** For the script: a frame from now on. */
  waitFor(predicate: (f: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined> {
    return new Promise((resolve) => {
      const w = (f: Frame) => {
        if (!predicate(f)) return;
        this.waiters.delete(w);
        clearTimeout(timer);
        resolve(f);
      };
      const timer = setTimeout(
        () => {
          this.waiters.delete(w);
          resolve(undefined);
        },
        Math.min(timeoutMs, 50),
      );
      this.waiters.add(w);
    });
  }
  frames() {
    return this.log;
  }
  /** What the agent wrote to stderr, and whether it exits once stdin closes (undefined: not a process). */
  stderrText = "";
  exits: boolean | undefined = true;
  stdinClosed = false;
  stderr() {
    return this.stderrText;
  }
  endInput(): Promise<boolean | undefined> {
    this.stdinClosed = true;
    return Promise.resolve(this.exits);
  }
  /** A line that is not UTF-8 (its bytes base64), as the transport keeps it. */
  notUtf8(base64: string) {
    const frame = this.seq.line("from-agent", "\ufffd", base64);
    this.log.push(frame);
  }
  answerWith(policies: Policies) {
    this.policies = { ...this.policies, ...policies };
  }
}

export const ok = (result: unknown) => ({ result });
export const notFound = { error: { code: -32601, message: "Method not found" } };

/** Like Qwen Code or Claude's adapter: asks permission in the turn, usage in _meta, late commands, random ids. */
export interface AgentOptions {
  modes?: boolean;
  parseError?: boolean;
  fastCancel?: boolean;
  /** Advertise loadSession and answer session/load so: a replay, an error (as Gemini), or a chunk after the response. */
  load?: "replays" | "fails" | "late chunk";
  /** session/new answers `models` beside the schema's fields (as Gemini and Claude). */
  models?: boolean;
  noAgentInfo?: boolean;
  /** Three modes; `autoEdit` refused (as Gemini in an untrusted folder), or every switch refused. */
  switches?: "none refused" | "one refused" | "all refused";
  /** After session/cancel: end the turn normally at once (a race), or stream five more chunks and then end it so. */
  cancel?: "ends at once" | "streams on";
  /** session/new answers -32000 until `authenticate` with "key". */
  authRequired?: boolean;
  /** Every session/new answers the same sessionId. */
  sameSessionId?: boolean;
  /** Beside fork and list: more session capabilities (resume, close, delete, additionalDirectories), and prompt capabilities. */
  capabilities?: { session?: Record<string, unknown>; prompt?: Record<string, unknown> };
  /** The authMethods initialize lists (default: one env_var method, "key"). */
  authMethods?: unknown[];
  /** As Qwen Code: -32023 for resuming or loading a session never prompted, -32603 for an `_` method without params. */
  qwen?: boolean;
  /** session/load answers a null result. */
  nullLoad?: boolean;
  /** Error messages with a newline in them. */
  multilineErrors?: boolean;
  /** The first turn's update names another session. */
  strayUpdate?: boolean;
  /** After initialize's answer, a line that is not UTF-8. */
  notUtf8?: boolean;
  /** The first turn sends an update the schema refuses (content of no known type). */
  invalidUpdate?: boolean;
  /**
   * As Claude's adapter: a turn first sends its commands, then streams a moment later; a
   * session/close before it streams fails the prompt with -32603.
   */
  commandsFirst?: boolean;
}

export const otherAgent = (o: AgentOptions = {}): Script => {
  let authenticated = false;
  const prompted = new Set<string>();
  const refuse = (code: number, message: string) => ({
    error: { code, message: o.multilineErrors ? `${message}\n  at handler (agent.js:1:1)` : message },
  });
  return {
    async handle(msg, agent) {
      switch (msg.method) {
        case "<malformed>":
          if (o.parseError) agent.emit({ error: { code: -32700, message: "Parse error" } });
          return undefined;
        case "initialize":
          if (o.notUtf8) setTimeout(() => agent.notUtf8("/w=="));
          return ok({
            protocolVersion: 1,
            ...(o.noAgentInfo ? {} : { agentInfo: { name: "other", version: "2.0.0" } }),
            authMethods: o.authMethods ?? [{ id: "key", name: "Key", type: "env_var" }],
            agentCapabilities: {
              ...(o.load ? { loadSession: true } : {}),
              sessionCapabilities: { fork: {}, list: {}, ...o.capabilities?.session },
              ...(o.capabilities?.prompt ? { promptCapabilities: o.capabilities.prompt } : {}),
            },
          });
        case "authenticate":
          // A failed authenticate does not sign out.
          if (msg.params?.methodId !== "key") return { error: { code: -32603, message: "unknown auth method" } };
          authenticated = true;
          return ok({});
        case "session/new":
          if (typeof msg.params?.cwd !== "string") return refuse(-32602, "Invalid params: cwd is required");
          if (o.authRequired && !authenticated) return { error: { code: -32000, message: "Authentication required" } };
          return ok({
            sessionId: o.sameSessionId ? "the-one-session" : uuid(),
            ...(o.models
              ? {
                  models: {
                    currentModelId: "m1",
                    availableModels: [
                      { modelId: "m1", name: "M1" },
                      { modelId: "m2", name: "M2" },
                    ],
                  },
                }
              : {}),
            ...(o.switches
              ? {
                  modes: {
                    currentModeId: "default",
                    availableModes: ["default", "autoEdit", "plan"].map((id) => ({ id, name: id })),
                  },
                }
              : {}),
            ...(o.modes
              ? {
                  modes: { currentModeId: "ask", availableModes: [{ id: "ask", name: "Ask" }] },
                  models: { currentModelId: "m1", availableModels: [{ modelId: "m1", name: "M1" }] },
                }
              : {}),
          });
        case "session/prompt": {
          const sid = msg.params!.sessionId as string;
          const text = JSON.stringify(msg.params!.prompt);
          if (o.strayUpdate && !prompted.size)
            agent.update("another-session", {
              sessionUpdate: "agent_message_chunk",
              content: { type: "text", text: "?" },
            });
          if (o.invalidUpdate && !prompted.size)
            agent.update(sid, { sessionUpdate: "agent_message_chunk", content: { type: "nonsense" } });
          prompted.add(sid);
          if (text.includes("Count slowly") && o.fastCancel) return ok({ stopReason: "end_turn" });
          if (text.includes("probe.txt")) {
            const answer = (await agent.ask("session/request_permission", {
              sessionId: sid,
              toolCall: { toolCallId: uuid(), title: "write probe.txt" },
              options: [
                { optionId: "always", name: "Always", kind: "allow_always" },
                { optionId: "once", name: "Once", kind: "allow_once" },
              ],
            })) as { outcome: { optionId?: string } };
            agent.update(sid, {
              sessionUpdate: "tool_call_update",
              toolCallId: "t1",
              status: answer.outcome.optionId === "once" ? "completed" : "failed",
            });
          }
          if (text.includes("Count slowly")) {
            if (o.commandsFirst) {
              agent.update(sid, { sessionUpdate: "available_commands_update", availableCommands: [] });
              if (await agent.waitFor((f) => f.method === "session/close", 20)) return refuse(-32603, "Internal error");
            }
            agent.update(sid, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "1" } });
            await agent.waitFor((f) => f.method === "session/cancel" || f.method === "session/close", 1000);
            if (o.cancel === "ends at once") return ok({ stopReason: "end_turn" });
            if (o.cancel === "streams on") {
              for (let n = 2; n < 7; n++)
                agent.update(sid, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${n}` } });
              return ok({ stopReason: "end_turn" });
            }
            return ok({ stopReason: "cancelled" });
          }
          agent.update(sid, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "OK" } });
          agent.update(sid, {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: "" },
            _meta: { usage: { promptTokens: 5, completionTokens: 1 } },
          });
          return ok({ stopReason: "end_turn", _meta: { "qwen.branchPoint": { id: uuid() } } });
        }
        case "session/fork":
          return msg.params?.cwd ? ok({ sessionId: "forked" }) : { error: { code: -32602, message: "cwd required" } };
        case "session/load": {
          const sid = msg.params!.sessionId as string;
          if (o.qwen && !prompted.has(sid)) return refuse(-32023, "Session not found");
          if (o.nullLoad) return ok(null);
          if (o.load === "fails")
            return { error: { code: -32603, message: "No previous sessions found for this project" } };
          agent.update(sid, { sessionUpdate: "user_message_chunk", content: { type: "text", text: "Reply with OK" } });
          setTimeout(() => {
            // After the response: commands are fine, a conversation chunk is not.
            agent.update(sid, { sessionUpdate: "available_commands_update", availableCommands: [] });
            if (o.load === "late chunk")
              agent.update(sid, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "OK" } });
          });
          return ok({ sessionId: sid, models: {} });
        }
        case "session/set_mode": {
          const modeId = msg.params!.modeId;
          if (o.switches === "all refused" && modeId !== "default")
            return { error: { code: -32603, message: `${String(modeId)} refused` } };
          if (o.switches === "one refused" && modeId === "autoEdit")
            return {
              error: { code: -32603, message: "Cannot enable privileged approval modes in an untrusted folder" },
            };
          return ok({});
        }
        case "session/set_model":
          return ok({});
        case "session/list":
          return ok({ sessions: [] });
        case "session/resume":
          if (o.qwen && !prompted.has(String(msg.params?.sessionId))) return refuse(-32023, "Session not found");
          return ok({});
        case "session/close":
        case "session/delete":
          return ok({});
        case "session/new_auth":
          return undefined;
        default:
          if (o.qwen && msg.method?.startsWith("_") && msg.params === undefined)
            return refuse(-32603, "Internal error: cannot read properties of undefined");
          return msg.id === undefined ? undefined : o.multilineErrors ? refuse(-32601, "Method not found") : notFound;
      }
    },
  };
};
