/**
 * The protocol rules a recording can show, judged frame by frame as the log grows: the
 * inspector shows them as checks (through FrameIndex), `acp-playground validate` turns
 * them into requirement results (lib/features/library/validate-report.ts). Each finding names the
 * requirement it breaks (RECORDING_REQUIREMENTS).
 *
 * Only what the recording shows is judged: a capture of one side has no requests to
 * pair the other side's responses with, and one that starts after `initialize` knows
 * neither the client's capabilities nor the sessions; `RecordingRules` is told which.
 */
import type { Requirement } from "../contracts/requirements";
import { idKey, type Frame, type FrameDirection, type JsonRpcId } from "../protocol/frame";
import { isObject } from "../protocol/json";
import { AGENT_METHODS, CLIENT_METHODS } from "../protocol/methods";
import { capabilityFor } from "../protocol/client-capabilities";
import { descriptorOf, protocolOf, type ProtocolName } from "../protocol/protocols";
import { staticChecks } from "./static-checks";

const DOCS = "docs/protocol/v1";
const JSONRPC = "https://www.jsonrpc.org/specification";

/** Every rule a recording is judged by; ids `PG-REC-NNN` (the ACP test kit checks live agents, not recordings). */
export const RECORDING_REQUIREMENTS = [
  {
    id: "PG-REC-001",
    tier: "MANDATORY",
    citation: `${DOCS}/transports.mdx#stdio`,
    title: "The agent writes nothing to its stdout that is not a valid ACP message (UTF-8 JSON-RPC 2.0, one per line)",
  },
  {
    id: "PG-REC-002",
    tier: "MANDATORY",
    citation: `${DOCS}/transports.mdx#stdio`,
    title:
      "The client writes nothing to the agent's stdin that is not a valid ACP message (UTF-8 JSON-RPC 2.0, one per line)",
  },
  {
    id: "PG-REC-003",
    tier: "MANDATORY",
    citation: "schema/schema.json",
    title: "Every message matches the schema variant that defines its method or update kind",
  },
  {
    id: "PG-REC-004",
    tier: "MANDATORY",
    citation: `${JSONRPC}#response_object`,
    title: "A response answers a request that is waiting for one (same id, the other way)",
  },
  {
    id: "PG-REC-005",
    tier: "MANDATORY",
    citation: `${JSONRPC}#request_object`,
    title: "A request id is not reused while a request with that id is still unanswered",
    note: "JSON-RPC pairs a response with its request by id alone: two requests in flight with one id cannot be told apart.",
  },
  {
    id: "PG-REC-006",
    tier: "MANDATORY",
    citation: `${JSONRPC}#notification`,
    title:
      "A notification method (session/update, session/cancel, $/cancel_request, ...) is sent without an id, a request method with one",
  },
  {
    id: "PG-REC-007",
    tier: "MANDATORY",
    citation: `${DOCS}/overview.mdx`,
    title:
      "Each method travels the way the protocol defines (agent methods to the agent, client methods to the client)",
  },
  {
    id: "PG-REC-008",
    tier: "MANDATORY",
    citation: `${DOCS}/file-system.mdx#checking-support`,
    title:
      "The agent calls no client method whose capability the client did not advertise (fs, terminal, elicitation modes)",
  },
  {
    id: "PG-REC-009",
    tier: "MANDATORY",
    citation: `${DOCS}/session-setup.mdx#session-id`,
    title: "A session/update names a session the agent created or the client named",
    note: "The spec has no sentence for it; an update for a session no one created cannot be shown anywhere.",
  },
  {
    id: "PG-REC-010",
    tier: "MANDATORY",
    citation: `${DOCS}/prompt-turn.mdx#4-check-for-completion`,
    title:
      "The agent answers session/prompt only when no tool call of the turn is pending (unless the turn was cancelled)",
  },
  {
    id: "PG-REC-011",
    tier: "MANDATORY",
    citation: `${DOCS}/prompt-turn.mdx#4-check-for-completion`,
    title: "Every prompt turn ends: session/prompt is answered with a stop reason",
  },
] as const satisfies readonly Requirement[];

export type RecordingRuleId = (typeof RECORDING_REQUIREMENTS)[number]["id"];

export interface RuleFinding {
  requirement: RecordingRuleId;
  /** What was seen, in a sentence (built from hostile text: show it as text only). */
  message: string;
  /** The frames that show it, the one judged first. */
  frames: number[];
}

export interface RulesScope {
  /** The directions the recording holds (a raw capture holds one). */
  sides: ReadonlySet<FrameDirection>;
  /** Whether it starts at the beginning (its first frame is the client's initialize). */
  fromStart: boolean;
  /** The protocol spoken (absent: ACP); the rules on ACP's own methods judge ACP recordings only. */
  protocol?: ProtocolName;
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};
const other = (dir: FrameDirection): FrameDirection => (dir === "to-agent" ? "from-agent" : "to-agent");
const paramsOf = (frame: Frame): Record<string, unknown> | undefined =>
  isObject(frame.message) && isObject(frame.message.params) ? frame.message.params : undefined;
const sessionIdOf = (frame: Frame): string | undefined => {
  const id = paramsOf(frame)?.sessionId;
  return typeof id === "string" ? id : undefined;
};

/** Tool call statuses a turn may not end with (tool-calls.mdx#status). */
const UNFINISHED = new Set(["pending", "in_progress"]);
/** Requests whose result carries a new session's id. */
const CREATES_SESSION = new Set<string>([AGENT_METHODS.session_new, AGENT_METHODS.session_fork]);

interface Open {
  seq: number;
  method: string;
  sessionId?: string;
}

/** The rules as a fold: `add` each frame in seq order, `finish` once the recording is over. */
export class RecordingRules {
  private readonly open: Record<FrameDirection, Map<string, Open>> = { "to-agent": new Map(), "from-agent": new Map() };
  private readonly bySeq = new Map<number, RuleFinding[]>();
  private readonly counts = new Map<RecordingRuleId, number>();
  /** The client's last `initialize` clientCapabilities; undefined before one is seen. */
  private advertised: unknown;
  private sawInitialize = false;
  private readonly sessions = new Set<string>();
  /** Per session, tool calls of the current turn and their last status. */
  private readonly toolCalls = new Map<string, Map<string, { status: string; seq: number }>>();

  constructor(readonly scope: RulesScope = { sides: new Set(["to-agent", "from-agent"]), fromStart: true }) {}

  /** How many frames each rule was judged on (a rule judged on none is not exercised). */
  judged(rule: RecordingRuleId): number {
    return this.counts.get(rule) ?? 0;
  }

  findingsOf(seq: number): readonly RuleFinding[] {
    return this.bySeq.get(seq) ?? [];
  }

  get findings(): RuleFinding[] {
    return [...this.bySeq.values()].flat();
  }

  private count(rule: RecordingRuleId): void {
    this.counts.set(rule, this.judged(rule) + 1);
  }

  private flag(frame: Frame, requirement: RecordingRuleId, message: string, also: number[] = []): void {
    const list = this.bySeq.get(frame.seq) ?? [];
    list.push({ requirement, message, frames: [frame.seq, ...also] });
    this.bySeq.set(frame.seq, list);
  }

  add(frame: Frame): readonly RuleFinding[] {
    const both = this.scope.sides.has("to-agent") && this.scope.sides.has("from-agent");
    const line = frame.dir === "from-agent" ? "PG-REC-001" : "PG-REC-002";
    this.count(line);
    const protocol = protocolOf(this.scope);
    if (frame.kind === "invalid") {
      this.flag(frame, line, `not a valid ${descriptorOf(protocol).label} message: ${frame.error ?? "invalid"}`);
      return this.findingsOf(frame.seq);
    }
    const m = frame.method;
    // ACP v1's session rules, for a protocol that follows them (lib/protocol/protocols.ts).
    const sessionRules = descriptorOf(protocol).sessionRules;
    if (sessionRules && (frame.kind === "request" || frame.kind === "notification")) {
      this.count("PG-REC-006");
      this.count("PG-REC-007");
      for (const c of staticChecks(frame)) {
        if (c.code === "notification-with-id" || c.code === "request-without-id")
          this.flag(frame, "PG-REC-006", c.message);
        else if (c.code === "wrong-direction") this.flag(frame, "PG-REC-007", c.message);
      }
    }
    if (frame.kind === "request" && frame.id !== undefined && m !== undefined) {
      this.count("PG-REC-005");
      const open = this.open[frame.dir];
      const key = idKey(frame.id);
      const earlier = open.get(key);
      if (earlier)
        this.flag(
          frame,
          "PG-REC-005",
          `id ${show(frame.id)} reused while request seq ${earlier.seq} (${earlier.method}) with it is unanswered`,
          [earlier.seq],
        );
      // The later one is what a response will be taken for.
      open.set(key, { seq: frame.seq, method: m, sessionId: sessionIdOf(frame) });
      this.request(frame, m);
    } else if (frame.kind === "response" && frame.id !== undefined) {
      this.response(frame, frame.id, both);
    } else if (
      sessionRules &&
      frame.kind === "notification" &&
      m === CLIENT_METHODS.session_update &&
      frame.dir === "from-agent"
    ) {
      this.update(frame);
    }
    return this.findingsOf(frame.seq);
  }

  private request(frame: Frame, method: string): void {
    if (!descriptorOf(protocolOf(this.scope)).sessionRules) return;
    const params = paramsOf(frame);
    if (frame.dir === "to-agent") {
      if (method === AGENT_METHODS.initialize) {
        this.sawInitialize = true;
        this.advertised = params?.clientCapabilities;
      }
      // A session the client names (load, resume, prompt) is one it knows of.
      const named = sessionIdOf(frame);
      if (named !== undefined) this.sessions.add(named);
      if (method === AGENT_METHODS.session_prompt && named !== undefined) this.toolCalls.delete(named);
      return;
    }
    if (!this.sawInitialize) return;
    const capability = capabilityFor(method);
    if (capability !== undefined) {
      this.count("PG-REC-008");
      let value: unknown = this.advertised;
      for (const key of capability.split(".")) value = isObject(value) ? value[key] : undefined;
      if (value !== true)
        this.flag(
          frame,
          "PG-REC-008",
          `${method} needs clientCapabilities.${capability}, which the client did not advertise`,
        );
    } else if (method === CLIENT_METHODS.elicitation_create) {
      this.count("PG-REC-008");
      const mode = typeof params?.mode === "string" ? params.mode : "form";
      const modes = isObject(this.advertised) ? this.advertised.elicitation : undefined;
      const advertised = isObject(modes) && modes[mode] !== undefined && modes[mode] !== null;
      if (!advertised)
        this.flag(
          frame,
          "PG-REC-008",
          `elicitation/create in ${show(mode)} mode, which the client did not advertise (clientCapabilities.elicitation.${mode})`,
        );
    }
  }

  private response(frame: Frame, id: JsonRpcId, both: boolean): void {
    const requests = this.open[other(frame.dir)];
    const request = requests.get(idKey(id));
    if (!request) {
      // The requests of a one-sided capture, or of the part before it started, are not in it.
      if (both && this.scope.fromStart) {
        this.count("PG-REC-004");
        this.flag(frame, "PG-REC-004", `response to id ${show(id)}, which no unanswered request has`);
      }
      return;
    }
    this.count("PG-REC-004");
    requests.delete(idKey(id));
    const result = isObject(frame.message) ? frame.message.result : undefined;
    if (frame.dir !== "from-agent" || !descriptorOf(protocolOf(this.scope)).sessionRules) return;
    if (CREATES_SESSION.has(request.method) && isObject(result) && typeof result.sessionId === "string")
      this.sessions.add(result.sessionId);
    if (request.method === AGENT_METHODS.session_prompt) this.count("PG-REC-011");
    if (request.method === AGENT_METHODS.session_prompt && request.sessionId !== undefined) {
      this.count("PG-REC-010");
      const calls = this.toolCalls.get(request.sessionId);
      this.toolCalls.delete(request.sessionId);
      const stopReason = isObject(result) ? result.stopReason : undefined;
      const pending = [...(calls?.entries() ?? [])].filter(([, c]) => UNFINISHED.has(c.status));
      if (pending.length > 0 && stopReason !== "cancelled")
        this.flag(
          frame,
          "PG-REC-010",
          `session/prompt answered (${show(stopReason ?? "error")}) while ${pending.length} tool call${pending.length === 1 ? " is" : "s are"} still ${[...new Set(pending.map(([, c]) => c.status))].join(" or ")}: ${pending
            .slice(0, 5)
            .map(([id]) => show(id))
            .join(", ")}`,
          pending.slice(0, 5).map(([, c]) => c.seq),
        );
    }
  }

  private update(frame: Frame): void {
    const sessionId = sessionIdOf(frame);
    if (sessionId === undefined) return;
    if (this.scope.fromStart && this.scope.sides.has("to-agent")) {
      this.count("PG-REC-009");
      if (!this.sessions.has(sessionId))
        this.flag(frame, "PG-REC-009", `session/update for session ${show(sessionId)}, which no one created or named`);
    }
    const update = paramsOf(frame)?.update;
    if (!isObject(update) || typeof update.toolCallId !== "string") return;
    const kind = update.sessionUpdate;
    if (kind !== "tool_call" && kind !== "tool_call_update") return;
    const calls = this.toolCalls.get(sessionId) ?? new Map<string, { status: string; seq: number }>();
    this.toolCalls.set(sessionId, calls);
    const known = calls.get(update.toolCallId);
    const status = typeof update.status === "string" ? update.status : (known?.status ?? "pending");
    calls.set(update.toolCallId, { status, seq: known?.seq ?? frame.seq });
  }

  /**
   * The end of the recording: a prompt still unanswered is a turn that never ended, unless
   * the client stopped the agent (`stopped`), which ends any turn. Findings go on the prompt.
   */
  finish(end: { stopped: boolean }, frameOf: (seq: number) => Frame | undefined): RuleFinding[] {
    if (!this.scope.sides.has("from-agent")) return [];
    const out: RuleFinding[] = [];
    for (const request of this.open["to-agent"].values()) {
      if (request.method !== AGENT_METHODS.session_prompt) continue;
      this.count("PG-REC-011");
      if (end.stopped) continue;
      const frame = frameOf(request.seq);
      if (!frame) continue;
      this.flag(frame, "PG-REC-011", "this turn never ended: the recording ends with session/prompt unanswered");
      out.push(...this.findingsOf(frame.seq).filter((f) => f.requirement === "PG-REC-011"));
    }
    return out;
  }

  /** Findings of frames before `firstSeq` are dropped (the inspector's log dropped them). */
  prune(firstSeq: number): void {
    for (const seq of this.bySeq.keys()) if (seq < firstSeq) this.bySeq.delete(seq);
  }
}
