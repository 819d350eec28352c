/**
 * Re-runs a transcript's client side against a live agent: sends the recorded
 * client->agent frames in order, waiting for each response, mapping request ids
 * and sessionIds; answers the agent's requests as recorded. Pure of I/O: the
 * caller supplies `send` (which says the seq the frame was given) and feeds the
 * agent's frames to `receive`. Requests go through the one request port
 * (lib/protocol/request-port.ts): live answers are paired by `requestSeq`, and so
 * are the recording's (a recording made before it is paired as the relay does).
 *
 * In Codex's app-server protocol (docs/app-server.md) thread and turn ids are mapped the same way
 * (from thread/start's and turn/start's results), and a turn answers at once and ends with a
 * `turn/completed`: each recorded client message waits for as many turns to have ended live as had
 * ended before it in the recording, and the re-run ends once the recorded turns have.
 *
 * A transcript may come from anyone: its `mcpServers` are command lines the live
 * agent would start, so they are sent only when the user saw them and said so.
 */
import { RequestSeqFiller } from "../../protocol/correlate";
import { display, isObject } from "../../protocol/json";
import type { Frame } from "../../protocol/frame";
import { RequestClient } from "../../protocol/request-port";
import type { Result } from "../../protocol/result";
import type { RerunStep } from "../../contracts/reports";
import { APP_SERVER_NOTIFICATIONS, threadIdOf, turnIdOf } from "../../protocol/app-server-methods";
import { DEFAULT_PROTOCOL, forProtocol, type ProtocolName } from "../../protocol/protocols";
import { specOf } from "../protocols/registry";

export interface RerunOptions {
  /** Replaces `cwd` in session/new, session/load, ... params (the recorded one may not exist here). */
  cwd?: string;
  /** How long to wait for each response. */
  timeoutMs?: number;
  /** Send the recorded `mcpServers` as they are; by default every request carries `mcpServers: []`. */
  recordedMcpServers?: boolean;
  /** The recording's protocol (its header's): how messages are written and where turns end. */
  protocol?: ProtocolName;
}

/** Whether a frame is the agent's notice that a turn ended (the app-server's `turn/completed`). */
const isTurnEnd = (f: Frame): boolean =>
  f.dir === "from-agent" && f.kind === "notification" && f.method === APP_SERVER_NOTIFICATIONS.turn_completed;

/** A recorded MCP server as the user is shown it before agreeing to start it. */
export interface RecordedMcpServer {
  /** The request that carried it (session/new, session/load, ...). */
  method: string;
  name: string;
  /** The command line (stdio), or the URL (http, sse). */
  command?: string;
  args: string[];
  url?: string;
  /** Names only: values may be redacted secrets, and the names are what tells what it reads. */
  env: string[];
  headers: string[];
}

const names = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((e) => display((e as { name?: unknown })?.name ?? "?")) : [];

function messageOf(f: Frame): Json | undefined {
  if (f.message && typeof f.message === "object") return f.message as Json;
  try {
    const m: unknown = JSON.parse(f.raw);
    return typeof m === "object" && m !== null ? (m as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** Every MCP server the recorded client side asks the agent to start. */
export function recordedMcpServers(frames: readonly Frame[]): RecordedMcpServer[] {
  const out: RecordedMcpServer[] = [];
  for (const f of frames) {
    if (f.dir !== "to-agent" || f.kind !== "request") continue;
    const servers = (messageOf(f)?.params as Json | undefined)?.mcpServers;
    if (!Array.isArray(servers)) continue;
    for (const s of servers as Json[]) {
      if (typeof s !== "object" || s === null) continue;
      out.push({
        method: f.method ?? "?",
        name: display(s.name ?? "?"),
        command: typeof s.command === "string" ? s.command : undefined,
        args: Array.isArray(s.args) ? s.args.map(String) : [],
        url: typeof s.url === "string" ? s.url : undefined,
        env: names(s.env),
        headers: names(s.headers),
      });
    }
  }
  return out;
}

type Json = Record<string, unknown>;

const sessionIdOf = (result: unknown): string | undefined => {
  const id = isObject(result) ? result.sessionId : undefined;
  return typeof id === "string" ? id : undefined;
};

/**
 * What else a recording could have the live agent run, beyond the mcpServers the user is shown:
 * never sent again. Claude's adapter hands `_meta.claudeCode.options` to Claude Code (its own
 * mcpServers, `extraArgs` such as `--settings` hooks or `--mcp-config`, `env`, `executableArgs`);
 * and the protocol's own rule (its spec's `rerunLeaveOut`: Codex's config overrides and commands).
 * Returns what was left out, or `skip` for a request not to send at all.
 */
function leaveOutCommands(message: Json, protocol: ProtocolName): { skip: true } | string | undefined {
  const own = specOf(protocol).rerunLeaveOut(message);
  if (own !== undefined) return own;
  const params = message.params;
  if (!isObject(params)) return undefined;
  const meta = params._meta;
  if (isObject(meta) && isObject(meta.claudeCode) && "options" in meta.claudeCode) {
    delete meta.claudeCode.options;
    return "its _meta.claudeCode.options";
  }
  return undefined;
}

export class Rerun {
  private nextId = 1;
  private readonly sessionIds = new Map<string, string>();
  private readonly client: RequestClient;
  /** The recording, each response carrying the seq of the request it answers. */
  private readonly recorded: readonly Frame[];
  /** Recorded answers of the client to the agent's requests, per method, in order. */
  private readonly answers = new Map<string, Json[]>();
  readonly steps: RerunStep[] = [];
  readonly problems: string[] = [];
  /** Turns the live agent has ended (app-server), and who waits for more. */
  private turnsEnded = 0;
  private readonly turnWaiters = new Set<() => void>();
  /** Writes one frame to the live agent, in the recording's protocol. */
  private readonly send: (message: Json) => Result<number>;

  constructor(
    recorded: readonly Frame[],
    /** Writes one frame to the live agent: the seq it was given, or why it was not sent. */
    send: (message: Json) => Result<number>,
    private readonly options: RerunOptions = {},
  ) {
    const protocol = options.protocol ?? DEFAULT_PROTOCOL;
    this.send = (message) => send(forProtocol(protocol, message));
    const filler = new RequestSeqFiller();
    this.recorded = recorded.map((f) => filler.fill({ ...f }));
    this.client = new RequestClient({ send: this.send, nextId: () => this.nextId++ });
    const agentRequests = new Map<number, string>();
    for (const f of this.recorded) {
      if (f.dir === "from-agent" && f.kind === "request" && f.method) agentRequests.set(f.seq, f.method);
      if (f.dir === "to-agent" && f.kind === "response" && f.message) {
        const method = f.method ?? (f.requestSeq === undefined ? undefined : agentRequests.get(f.requestSeq));
        if (!method) continue;
        const list = this.answers.get(method) ?? [];
        list.push(f.message as Json);
        this.answers.set(method, list);
      }
    }
  }

  /** Feed every frame of the live agent here (and those sent to it, in seq order: the port reads the agent's). */
  receive(frame: Frame): void {
    this.client.received([frame]);
    if (isTurnEnd(frame)) {
      this.turnsEnded++;
      for (const wake of this.turnWaiters) wake();
    }
    if (frame.dir !== "from-agent" || frame.kind !== "request" || !frame.method) return;
    const answer = this.answers.get(frame.method)?.shift();
    if (answer) {
      const { jsonrpc: _j, id: _i, ...rest } = answer;
      this.send({ jsonrpc: "2.0", id: frame.id, ...(this.mapSessions(rest) as Json) });
    } else {
      this.problems.push(`the agent asked ${frame.method}, which the recording never answered`);
      this.send({
        jsonrpc: "2.0",
        id: frame.id,
        error: { code: -32603, message: `replay: no recorded answer to ${frame.method}` },
      });
    }
  }

  private mapSessions(value: unknown): unknown {
    if (typeof value === "string") return this.sessionIds.get(value) ?? value;
    if (Array.isArray(value)) return value.map((v) => this.mapSessions(v));
    if (typeof value === "object" && value !== null) {
      const out: Json = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.mapSessions(v);
      return out;
    }
    return value;
  }

  /** The ids a result names (ACP's sessionId; the app-server's thread and turn), recorded -> live. */
  private learnSession(recordedResponse: Frame | undefined, result: unknown): void {
    const recorded = (recordedResponse?.message as { result?: unknown } | undefined)?.result;
    for (const idOf of [sessionIdOf, threadIdOf, turnIdOf]) {
      const recordedId = idOf(recorded);
      const liveId = idOf(result);
      if (recordedId !== undefined && liveId !== undefined) this.sessionIds.set(recordedId, liveId);
    }
  }

  /** Waits until the live agent has ended `count` turns; false when it does not within `timeoutMs`. */
  private turnsEndedBy(count: number, timeoutMs: number): Promise<boolean> {
    if (this.turnsEnded >= count) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.turnWaiters.delete(check);
        resolve(ok);
      };
      const check = () => {
        if (this.turnsEnded >= count) done(true);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.turnWaiters.add(check);
    });
  }

  private async turnsCaughtUp(count: number, timeoutMs: number, before: string): Promise<void> {
    if (!(await this.turnsEndedBy(count, timeoutMs)))
      this.problems.push(
        `the live agent ended ${this.turnsEnded} of the ${count} turns the recording had ended ${before} within ${timeoutMs} ms`,
      );
  }

  async run(): Promise<RerunStep[]> {
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    /** The agent's recorded answers, by the seq of the request answered. */
    const responses = new Map<number, Frame>();
    for (const f of this.recorded)
      if (f.dir === "from-agent" && f.kind === "response" && f.requestSeq !== undefined) responses.set(f.requestSeq, f);

    let recordedTurnsEnded = 0;
    for (const f of this.recorded) {
      if (isTurnEnd(f)) recordedTurnsEnded++;
      if (f.dir !== "to-agent" || (f.kind !== "request" && f.kind !== "notification") || !f.message) continue;
      await this.turnsCaughtUp(recordedTurnsEnded, timeoutMs, `before ${f.method}`);
      const message = this.mapSessions(f.message) as Json;
      const params = message.params as Json | undefined;
      if (this.options.cwd && params && typeof params.cwd === "string") params.cwd = this.options.cwd;
      if (!this.options.recordedMcpServers && params && "mcpServers" in params) params.mcpServers = [];
      const left = leaveOutCommands(message, this.options.protocol ?? DEFAULT_PROTOCOL);
      if (typeof left === "object") {
        this.problems.push(
          `${f.method} (recorded id ${JSON.stringify(f.id)}) was not sent: it runs or installs a recorded command, or uploads files`,
        );
        continue;
      }
      if (left)
        this.problems.push(
          `${f.method} (recorded id ${JSON.stringify(f.id)}) was sent without ${left}: they can start commands`,
        );
      if (f.kind === "notification") {
        this.send(message);
        this.steps.push({ method: f.method!, outcome: "sent" });
        continue;
      }
      const liveId = this.nextId++;
      const started = Date.now();
      const outcome = await this.client.sendRequest({ ...message, id: liveId, method: f.method! }, { timeoutMs });
      const step: RerunStep = { method: f.method!, recordedId: f.id, liveId, outcome: "timeout" };
      if (outcome.kind !== "failed") {
        step.outcome = outcome.kind === "error" ? "error" : "answered";
        step.latencyMs = Date.now() - started;
        if (outcome.kind === "result") this.learnSession(responses.get(f.seq), outcome.result);
      } else {
        const why =
          outcome.reason === "timeout"
            ? `got no answer within ${timeoutMs} ms`
            : `was not answered: ${outcome.message}`;
        this.problems.push(`${f.method} (recorded id ${JSON.stringify(f.id)}) ${why}`);
      }
      this.steps.push(step);
    }
    await this.turnsCaughtUp(recordedTurnsEnded, timeoutMs, "in all");
    return this.steps;
  }
}
