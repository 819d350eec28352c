/**
 * The agent side of a recorded transcript, played back: answers the client's
 * requests with the recorded responses and the notifications and agent requests
 * that followed them. Pure: the caller does the I/O and the pacing.
 */
import { idKey, type Frame, type JsonRpcId } from "../../protocol/frame";
import { isObject } from "../../protocol/json";
import { DEFAULT_PROTOCOL, forProtocol, isTurnStart, PROTOCOLS, type ProtocolName } from "../../protocol/protocols";
import { specOf } from "../protocols/registry";
import { REPLAY_NOTE_META } from "../protocols/spec";

export interface Emit {
  /** Recorded milliseconds since the previous emitted line (for pacing). */
  delayMs: number;
  line: string;
}

/**
 * The text of a turn's content blocks, whitespace folded (what the user typed): a session/prompt's
 * `prompt`, or a turn/start's `input` (the app-server's text inputs have the same shape).
 */
export function promptText(params: unknown): string {
  const blocks = !isObject(params)
    ? []
    : Array.isArray(params.prompt)
      ? params.prompt
      : Array.isArray(params.input)
        ? params.input
        : [];
  return blocks
    .filter((b): b is { type: "text"; text: string } => isObject(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

const quoted = (text: string) => `“${text.length > 120 ? `${text.slice(0, 119)}…` : text}”`;

/** Marks what a replay says about itself (not from the recording): the note before a turn, the error after the last. */
export { REPLAY_NOTE_META };

export class RecordedAgent {
  private pos = 0;
  private lastTs?: number;
  /** Recorded request id -> the live request id it was matched to. */
  private readonly ids = new Map<string, JsonRpcId>();

  constructor(
    private readonly frames: readonly Frame[],
    private readonly protocol: ProtocolName = DEFAULT_PROTOCOL,
  ) {}

  /** The request that starts a turn in this recording's protocol (session/prompt, turn/start). */
  private get turnMethod(): string {
    return PROTOCOLS[this.protocol].turnMethod;
  }

  /** A line this replay makes up itself, written as the recording's protocol writes (app-server: no "jsonrpc"). */
  private line(message: object): Emit {
    return { delayMs: 0, line: JSON.stringify(forProtocol(this.protocol, { jsonrpc: "2.0", ...message })) };
  }

  get done(): boolean {
    return this.pos >= this.frames.length;
  }

  /** Lines the agent sent before the client said anything. */
  start(): Emit[] {
    return this.play();
  }

  receive(message: unknown): Emit[] {
    if (typeof message !== "object" || message === null || Array.isArray(message)) return [];
    const m = message as { id?: JsonRpcId; method?: unknown };
    if (typeof m.method !== "string") return this.clientAnswered(m.id);
    const isRequest = m.id !== undefined;
    const k = this.findClientMessage(m.method, isRequest);
    if (k === -1) {
      if (!isRequest) return [];
      const error =
        m.method === this.turnMethod
          ? this.noFurtherPrompt()
          : { code: -32601, message: `replay: the transcript has no further "${m.method}" request` };
      return [this.line({ id: m.id, error })];
    }
    const recorded = this.frames[k]!;
    if (isRequest) this.ids.set(idKey(recorded.id), m.id!);
    this.pos = k + 1;
    const note = m.method === this.turnMethod ? this.promptNote(message, recorded) : undefined;
    const played = this.play();
    return note ? [note, ...played] : played;
  }

  /**
   * A prompt other than the recorded one still gets the recorded answer (the
   * replay cannot make up another): an agent message before it says so, naming both.
   */
  private promptNote(live: object, recorded: Frame): Emit | undefined {
    const params = (live as { params?: unknown }).params;
    const typed = promptText(params);
    const expected = promptText((recorded.message as { params?: unknown } | undefined)?.params);
    if (typed === expected) return undefined;
    const said =
      `Replay: you typed ${quoted(typed || "(no text)")}, but this is a recording: it answers its own prompt, ` +
      `${quoted(expected || "(no text)")}, whatever is typed. Connect a live agent to ask something new.`;
    return this.line(specOf(this.protocol).replayNote(params, said));
  }

  /** The error for a prompt after the recording's last: what it had, and what to do instead. */
  private noFurtherPrompt(): { code: number; message: string; data: Record<string, unknown> } {
    const prompts = this.frames
      .filter((f) => isTurnStart(this.protocol, f))
      .map((f) => promptText((f.message as { params?: unknown } | undefined)?.params));
    const had = prompts.length
      ? `its ${prompts.length === 1 ? "only prompt was" : `${prompts.length} prompts were`} ${prompts.map((p) => quoted(p)).join(", ")}`
      : "it has no prompt";
    return {
      code: -32000,
      message: `replay: this recording has no further prompt to play (${had}). A replay plays back a recorded session; connect a live agent to ask something new.`,
      data: { recordedPrompts: prompts, [REPLAY_NOTE_META]: true },
    };
  }

  /** The client answered one of the agent's requests: go on if that is where the recording waits. */
  private clientAnswered(id: JsonRpcId | undefined): Emit[] {
    const next = this.frames[this.pos];
    if (next && next.dir === "to-agent" && next.kind === "response" && idKey(next.id) === idKey(id)) {
      this.pos++;
      return this.play();
    }
    return [];
  }

  private findClientMessage(method: string, isRequest: boolean): number {
    for (let k = this.pos; k < this.frames.length; k++) {
      const f = this.frames[k]!;
      if (f.dir === "to-agent" && f.method === method && f.kind === (isRequest ? "request" : "notification")) return k;
    }
    return -1;
  }

  /** Plays agent frames up to the next thing the client has to send. */
  private play(): Emit[] {
    const out: Emit[] = [];
    while (this.pos < this.frames.length) {
      const f = this.frames[this.pos]!;
      if (f.dir === "to-agent") break;
      this.pos++;
      if (f.kind === "invalid" && f.error?.startsWith("line of ")) continue; // an over-long line was never kept
      const delayMs = this.lastTs === undefined ? 0 : Math.max(0, f.ts - this.lastTs);
      this.lastTs = f.ts;
      out.push({ delayMs, line: this.rewrite(f) });
    }
    return out;
  }

  private rewrite(f: Frame): string {
    if (f.kind !== "response") return f.raw;
    const live = this.ids.get(idKey(f.id));
    if (live === undefined || idKey(live) === idKey(f.id)) return f.raw;
    return JSON.stringify({ ...(f.message as object), id: live });
  }
}

/** Marks a response the relay answered from the recording (a field the inspector shows in the raw line). */
export const REPLAYED_META = "acpPlayground/replayed";

/**
 * The client side of a recorded transcript, for a replayed agent's requests:
 * each is answered with the client's recorded response to the same request
 * (same id and method, in order), or with an error when the recording has
 * none. Nothing the request asks for (a command, a file write) is carried out.
 */
export class RecordedClient {
  private readonly answers = new Map<string, unknown[]>();

  constructor(
    frames: readonly Frame[],
    private readonly protocol: ProtocolName = DEFAULT_PROTOCOL,
  ) {
    const asked = new Map<string, string>();
    for (const f of frames) {
      if (f.dir === "from-agent" && f.kind === "request" && f.method) asked.set(idKey(f.id), f.method);
      else if (f.dir === "to-agent" && f.kind === "response") {
        const method = asked.get(idKey(f.id));
        if (method === undefined) continue;
        asked.delete(idKey(f.id));
        const key = `${method} ${idKey(f.id)}`;
        this.answers.set(key, [...(this.answers.get(key) ?? []), f.message ?? safeParse(f.raw)]);
      }
    }
  }

  /** The response line to a request of the replayed agent. */
  answer(id: JsonRpcId, method: string): string {
    const recorded = this.answers.get(`${method} ${idKey(id)}`)?.shift() as Record<string, unknown> | undefined;
    const result = recorded?.result;
    if (recorded && "result" in recorded) {
      const marked = isObject(result)
        ? { ...result, _meta: { ...(result as { _meta?: object })._meta, [REPLAYED_META]: true } }
        : result;
      return JSON.stringify(forProtocol(this.protocol, { jsonrpc: "2.0", id, result: marked }));
    }
    const error =
      recorded && typeof recorded.error === "object" && recorded.error !== null
        ? { ...recorded.error, data: { [REPLAYED_META]: true } }
        : {
            code: -32603,
            message: `replay: the recording has no answer to ${method} (id ${JSON.stringify(id ?? null)}); nothing was carried out`,
            data: { [REPLAYED_META]: true },
          };
    return JSON.stringify(forProtocol(this.protocol, { jsonrpc: "2.0", id, error }));
  }
}

function safeParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
