/**
 * The diff engine for any two transcripts (or two turns of one), and the
 * alignment the re-run diff (transcript-diff.ts) uses too.
 *
 * Each side becomes a list of steps: one per frame, both directions, except
 * that consecutive chunks of one message are one step (their text joined:
 * chunk boundaries are transport noise). A step's alignment key is its
 * direction, kind, method and shape (the `session/update` kind, result or
 * error); its content is the message normalised by shape (ids, session and
 * tool call ids, UUIDs, times, working directories; by the protocol: the
 * app-server's thread, turn, item and process ids). The two key lists are
 * aligned by a longest common subsequence (Myers' algorithm, the `diff`
 * package): aligned steps are the same or changed (with the fields that
 * differ); the rest were removed (only in A) or inserted (only in B), and in a
 * gap a removed and an inserted step of the same direction and method pair up
 * as changed.
 *
 * Bounded: the common prefix and suffix are matched first in linear time; the
 * rest is aligned only while it takes at most MAX_EDITS insertions and
 * removals (Myers' work is O((N+M)·D)). Past that, each side is cut at its
 * prompts and turns are aligned pairwise under the same bound, and a pair
 * still past it is paired greedily by key within a window: the answer says it
 * is approximate.
 */
import { diffArrays } from "diff";
import { idKey, type Frame, type FrameDirection, type FrameKind } from "../../protocol/frame";
import type { FieldDiff } from "../../contracts/reports";
import { isObject, str } from "../../protocol/json";
import { AGENT_METHODS, CLIENT_METHODS } from "../../protocol/methods";
import { chunkKeyOf } from "../../folds/chunk-folds";
import { turnUsageOf, updateUsageOf, type TurnUsage } from "../../folds/turn-usage";
import { buildWaterfall } from "../../folds/waterfall";
import { DEFAULT_PROTOCOL, type ProtocolName } from "../../protocol/protocols";
import { specOf } from "../protocols/registry";

// ---------------------------------------------------------------------------
// Normalising by shape

const TIME_KEY = /^(ts|timestamp|time|date|.*(At|Time|Timestamp)(Ms)?)$/i;
const DURATION_KEY = /(duration|elapsed|latency)(Ms|Millis|Seconds|S)?$/i;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g;
/** A token that looks generated: hex of 16+, or 12+ letters and digits mixed. */
const RANDOM_TOKEN = /^(?:[0-9a-f]{16,}|(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{12,})$/;
/** Epoch seconds or milliseconds between 2001 and 2286. */
const isEpoch = (n: number) => Number.isInteger(n) && ((n > 1e9 && n < 1e10) || (n > 1e12 && n < 1e13));
/** Deeper than this a value is kept as one opaque leaf: a hostile file must not exhaust the stack. */
const MAX_DEPTH = 64;

/** The day and time in Codex's rollout file name (`sessions/2026/11/26/rollout-2026-11-26T12-28-12-<thread>.jsonl`). */
const ROLLOUT_TIME = /\d{4}\/\d{2}\/\d{2}\/rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}/g;

/** Replaces what differs from run to run by a stable placeholder. One per side. */
export class Normaliser {
  private readonly names = new Map<string, string>();
  private readonly counters = new Map<string, number>();
  private readonly cwds: string[];
  private readonly idKeys: ReadonlyMap<string, string>;
  private readonly idOwners: ReadonlyMap<string, string>;
  private readonly rolloutTime: boolean;

  /** Working directories of either run (a replayed agent reports the recorded one); longest first. */
  constructor(cwds: readonly string[] = [], protocol: ProtocolName = DEFAULT_PROTOCOL) {
    this.cwds = [...cwds].filter((c) => c.length > 1).sort((a, b) => b.length - a.length);
    // The protocol's run-specific ids (its spec's).
    const { ids } = specOf(protocol);
    this.idKeys = ids.keys;
    this.idOwners = ids.owners;
    this.rolloutTime = ids.rolloutTime;
  }

  private alias(kind: string, value: string): string {
    const key = `${kind}:${value}`;
    let name = this.names.get(key);
    if (!name) {
      const n = (this.counters.get(kind) ?? 0) + 1;
      this.counters.set(kind, n);
      name = `<${kind}-${n}>`;
      this.names.set(key, name);
    }
    return name;
  }

  /**
   * `inMeta`: under a `_meta` key, where agents put run-specific ids. `owner`: the key holding the
   * object `v` is a member of (for a list's elements, the list's key).
   */
  value(v: unknown, key?: string, inMeta = false, depth = 0, owner?: string): unknown {
    const idKind = key === "id" ? owner && this.idOwners.get(owner) : key && this.idKeys.get(key);
    if (idKind && (typeof v === "string" || typeof v === "number")) return this.alias(idKind, String(v));
    if (typeof v === "string") {
      if (key && TIME_KEY.test(key)) return "<time>";
      if (inMeta && RANDOM_TOKEN.test(v)) return this.alias("id", v);
      const text = this.cwds.reduce((t, cwd) => t.split(cwd).join("<cwd>"), v);
      const timed = this.rolloutTime ? text.replace(ROLLOUT_TIME, "<date>/rollout-<time>") : text;
      return timed.replace(UUID, (u) => this.alias("uuid", u.toLowerCase())).replace(ISO_TIME, "<time>");
    }
    if (typeof v === "number") {
      if (key && TIME_KEY.test(key)) return "<time>";
      if (key && DURATION_KEY.test(key)) return "<duration>";
      if (isEpoch(v)) return "<time>";
      return v;
    }
    if (typeof v !== "object" || v === null) return v;
    if (depth >= MAX_DEPTH) return "<too deep>";
    if (Array.isArray(v)) return v.map((x) => this.value(x, undefined, inMeta, depth + 1, key));
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort())
      out[k] = this.value((v as Record<string, unknown>)[k], k, inMeta || k === "_meta", depth + 1, key ?? owner);
    return out;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The leaves where two JSON values differ (`recorded` is side A, `actual` side B). */
export function fieldDiffs(recorded: unknown, actual: unknown, path = "", out: FieldDiff[] = []): FieldDiff[] {
  if (Array.isArray(recorded) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(recorded.length, actual.length); i++)
      fieldDiffs(recorded[i], actual[i], `${path}[${i}]`, out);
    return out;
  }
  if (isPlainObject(recorded) && isPlainObject(actual)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(actual)])].sort();
    for (const k of keys) fieldDiffs(recorded[k], actual[k], path ? `${path}.${k}` : k, out);
    return out;
  }
  if (JSON.stringify(recorded) !== JSON.stringify(actual)) out.push({ path, recorded, actual });
  return out;
}

// ---------------------------------------------------------------------------
// The alignment

/** Past this many insertions and removals, the exact alignment gives way (see the top of the file). */
export const MAX_EDITS = 2_000;
/** How far the greedy fallback looks ahead for a step of the same key. */
const GREEDY_WINDOW = 64;

export type AlignOpKind = "same" | "changed" | "removed" | "inserted";

/** One line of an alignment: indices into side A and side B. */
export interface AlignOp {
  op: AlignOpKind;
  a?: number;
  b?: number;
}

export interface AlignOptions<T> {
  /** What must be equal for two items to align. */
  key: (t: T) => string;
  /** Aligned items that are equal (else "changed"). */
  same: (x: T, y: T) => boolean;
  /** In a gap, a removed and an inserted item with the same loose key pair up as changed. */
  loose?: (t: T) => string;
  maxEdits?: number;
  /** Where the fallback may cut a side: items starting a segment (a prompt). */
  segmentStart?: (t: T) => boolean;
}

export interface Alignment {
  ops: AlignOp[];
  /** The bound was reached somewhere: part of the alignment is greedy, not a longest common subsequence. */
  approximate: boolean;
}

/** Aligns two lists (see the top of the file for the bound). */
export function align<T>(a: readonly T[], b: readonly T[], o: AlignOptions<T>): Alignment {
  const ka = a.map(o.key);
  const kb = b.map(o.key);
  const maxEdits = o.maxEdits ?? MAX_EDITS;
  const out: AlignOp[] = [];
  let approximate = false;
  const emitPair = (i: number, j: number) => out.push({ op: o.same(a[i]!, b[j]!) ? "same" : "changed", a: i, b: j });

  /** Exact alignment of a[a0, a1) with b[b0, b1); false when past the bound. */
  const exact = (a0: number, a1: number, b0: number, b1: number): boolean => {
    let s = 0;
    while (a0 + s < a1 && b0 + s < b1 && ka[a0 + s] === kb[b0 + s]) s++;
    let e = 0;
    while (a1 - e > a0 + s && b1 - e > b0 + s && ka[a1 - e - 1] === kb[b1 - e - 1]) e++;
    const ma = ka.slice(a0 + s, a1 - e);
    const mb = kb.slice(b0 + s, b1 - e);
    const parts =
      ma.length && mb.length
        ? diffArrays(ma, mb, { maxEditLength: maxEdits })
        : [
            ...(ma.length ? [{ removed: true, added: false, value: ma }] : []),
            ...(mb.length ? [{ removed: false, added: true, value: mb }] : []),
          ];
    if (!parts) return false;
    for (let k = 0; k < s; k++) emitPair(a0 + k, b0 + k);
    let i = a0 + s;
    let j = b0 + s;
    let removed: number[] = [];
    let inserted: number[] = [];
    const flush = () => {
      gap(removed, inserted);
      removed = [];
      inserted = [];
    };
    for (const part of parts) {
      const n = part.value.length;
      if (part.removed) for (let k = 0; k < n; k++) removed.push(i++);
      else if (part.added) for (let k = 0; k < n; k++) inserted.push(j++);
      else {
        flush();
        for (let k = 0; k < n; k++) emitPair(i++, j++);
      }
    }
    flush();
    for (let k = 0; k < e; k++) emitPair(a1 - e + k, b1 - e + k);
    return true;
  };

  /** Removed and inserted items between two aligned ones: pair by loose key, in order. */
  const gap = (removed: number[], inserted: number[]) => {
    if (!removed.length && !inserted.length) return;
    const pairOf = new Map<number, number>();
    if (o.loose) {
      let from = 0;
      for (const i of removed) {
        const key = o.loose(a[i]!);
        for (let k = from; k < inserted.length; k++) {
          if (o.loose(b[inserted[k]!]!) === key) {
            pairOf.set(i, inserted[k]!);
            from = k + 1;
            break;
          }
        }
      }
    }
    // In order: each removed item before the inserted ones that come before its pair.
    let k = 0;
    for (const i of removed) {
      const j = pairOf.get(i);
      if (j === undefined) {
        out.push({ op: "removed", a: i });
        continue;
      }
      while (k < inserted.length && inserted[k]! < j) out.push({ op: "inserted", b: inserted[k++]! });
      out.push({ op: "changed", a: i, b: j });
      k++;
    }
    while (k < inserted.length) out.push({ op: "inserted", b: inserted[k++]! });
  };

  /** Past the bound: pair by key in order, looking a window ahead on both sides. */
  const greedy = (a0: number, a1: number, b0: number, b1: number) => {
    approximate = true;
    let i = a0;
    let j = b0;
    while (i < a1 && j < b1) {
      if (ka[i] === kb[j]) {
        emitPair(i++, j++);
        continue;
      }
      let inB = -1;
      for (let k = j + 1; k < Math.min(b1, j + GREEDY_WINDOW); k++)
        if (kb[k] === ka[i]) {
          inB = k;
          break;
        }
      let inA = -1;
      for (let k = i + 1; k < Math.min(a1, i + GREEDY_WINDOW); k++)
        if (ka[k] === kb[j]) {
          inA = k;
          break;
        }
      if (inB >= 0 && (inA < 0 || inB - j <= inA - i)) while (j < inB) out.push({ op: "inserted", b: j++ });
      else if (inA >= 0) while (i < inA) out.push({ op: "removed", a: i++ });
      else gap([i++], [j++]);
    }
    while (i < a1) out.push({ op: "removed", a: i++ });
    while (j < b1) out.push({ op: "inserted", b: j++ });
  };

  if (exact(0, a.length, 0, b.length)) return { ops: out, approximate };
  // Cut both sides at their segment starts and align segments pairwise; the last takes the rest of both.
  const cuts = (xs: readonly T[]) => {
    const at = [0];
    if (o.segmentStart) xs.forEach((x, i) => i > 0 && o.segmentStart!(x) && at.push(i));
    return at;
  };
  const ca = cuts(a);
  const cb = cuts(b);
  const n = Math.min(ca.length, cb.length);
  for (let s = 0; s < n; s++) {
    const a0 = ca[s]!;
    const b0 = cb[s]!;
    const a1 = s === n - 1 ? a.length : ca[s + 1]!;
    const b1 = s === n - 1 ? b.length : cb[s + 1]!;
    if (!exact(a0, a1, b0, b1)) greedy(a0, a1, b0, b1);
  }
  return { ops: out, approximate: true };
}

// ---------------------------------------------------------------------------
// Steps of a transcript

export interface Step {
  dir: FrameDirection;
  kind: FrameKind;
  method?: string;
  /** `params.update.sessionUpdate` of a `session/update`. */
  variant?: string;
  /** What aligns: direction, kind, method and shape. */
  key: string;
  /** `→ session/prompt`, `← session/update agent_message_chunk ×12`, `← response session/prompt (error)`. */
  label: string;
  /** The message normalised (no jsonrpc, no id). */
  content: unknown;
  /** Its JSON, for equality. */
  text: string;
  /** The first and last frame (a run of chunks spans several). */
  seq: number;
  lastSeq: number;
  /** Frames in the step. */
  frames: number;
  /** ms since the side's first frame. */
  at: number;
  /** A response's latency; a run of chunks' span. */
  durationMs?: number;
  /** Tokens the step reports (a prompt's answer, a usage update). */
  usage?: TurnUsage;
}

export interface StepOptions {
  /** Working directories to write as `<cwd>`. */
  cwds?: readonly string[];
  /** Whose ids are run-specific (the Normaliser). */
  protocol?: ProtocolName;
}

const ARROW: Record<FrameDirection, string> = { "to-agent": "→", "from-agent": "←" };

/** The steps of a list of frames (in seq order). */
export function stepsOf(frames: readonly Frame[], options: StepOptions = {}): Step[] {
  const norm = new Normaliser(options.cwds ?? [], options.protocol);
  const steps: Step[] = [];
  const t0 = frames[0]?.ts ?? 0;
  /** Requests by seq, and by direction and id for recordings without requestSeq. */
  const requests = new Map<number, Frame>();
  const byId = new Map<string, Frame>();
  let run: { step: Step; chunk: string; texts: string[]; update: Record<string, unknown>; params: unknown } | undefined;
  const closeRun = () => {
    if (!run) return;
    const { step, texts, update, params } = run;
    const joined = { ...(params as object), update: { ...update, content: { type: "text", text: texts.join("") } } };
    step.content = norm.value({ params: joined });
    step.text = JSON.stringify(step.content);
    if (step.frames > 1) step.label = `${step.label} ×${step.frames}`;
    run = undefined;
  };
  for (const f of frames) {
    const m = isObject(f.message) ? f.message : undefined;
    const chunk = m ? chunkKeyOf(f) : undefined;
    const params = m && isObject(m.params) ? m.params : undefined;
    const update = params && isObject(params.update) ? params.update : undefined;
    const content = update && isObject(update.content) ? update.content : undefined;
    const text = content?.type === "text" && typeof content.text === "string" ? content.text : undefined;
    if (chunk && text !== undefined && update) {
      const chunkKey = `${chunk.sessionId}\u0000${chunk.kind}\u0000${chunk.of ?? ""}`;
      if (run && run.chunk === chunkKey && run.step.lastSeq === f.seq - 1) {
        run.texts.push(text);
        run.step.lastSeq = f.seq;
        run.step.frames++;
        run.step.durationMs = f.ts - t0 - run.step.at;
        continue;
      }
      closeRun();
      const key = `from-agent notification session/update ${chunk.kind} text`;
      const step: Step = {
        dir: f.dir,
        kind: f.kind,
        method: f.method,
        variant: chunk.kind,
        key,
        label: `${ARROW[f.dir]} session/update ${chunk.kind}`,
        content: undefined,
        text: "",
        seq: f.seq,
        lastSeq: f.seq,
        frames: 1,
        at: f.ts - t0,
        durationMs: 0,
      };
      const usage = updateUsageOf(update);
      if (usage) step.usage = usage;
      steps.push(step);
      run = { step, chunk: chunkKey, texts: [text], update, params };
      continue;
    }
    closeRun();
    let method = f.method;
    let durationMs: number | undefined;
    let usage: TurnUsage | undefined;
    let shape = "";
    let body: unknown;
    if (f.kind === "request" && m) {
      requests.set(f.seq, f);
      byId.set(`${f.dir} ${idKey(f.id)}`, f);
      body = { params: m.params };
    } else if (f.kind === "response" && m) {
      const other = f.dir === "to-agent" ? "from-agent" : "to-agent";
      const request =
        (f.requestSeq !== undefined ? requests.get(f.requestSeq) : undefined) ?? byId.get(`${other} ${idKey(f.id)}`);
      if (request) byId.delete(`${other} ${idKey(f.id)}`);
      method ??= request?.method;
      durationMs = f.latencyMs ?? (request ? f.ts - request.ts : undefined);
      const isError = "error" in m;
      shape = isError ? "error" : "result";
      body = isError ? { error: m.error } : { result: m.result };
      if (!isError && method === AGENT_METHODS.session_prompt) usage = turnUsageOf(m.result);
    } else if (f.kind === "notification" && m) {
      body = { params: m.params };
      const variant = str(update?.sessionUpdate);
      if (f.method === CLIENT_METHODS.session_update && variant) shape = variant;
      if (update) usage = updateUsageOf(update);
    } else {
      body = { invalid: f.raw };
    }
    const variant = f.method === CLIENT_METHODS.session_update ? str(update?.sessionUpdate) : undefined;
    const what =
      f.kind === "response"
        ? `response ${method ?? "?"}${shape === "error" ? " (error)" : ""}`
        : f.kind === "invalid"
          ? "invalid line"
          : `${method ?? "?"}${variant ? ` ${variant}` : ""}`;
    const normalised = norm.value(body);
    const step: Step = {
      dir: f.dir,
      kind: f.kind,
      key: `${f.dir} ${f.kind} ${method ?? ""} ${shape}`,
      label: `${ARROW[f.dir]} ${what}`,
      content: normalised,
      text: JSON.stringify(normalised),
      seq: f.seq,
      lastSeq: f.seq,
      frames: 1,
      at: f.ts - t0,
    };
    if (method !== undefined) step.method = method;
    if (variant !== undefined) step.variant = variant;
    if (durationMs !== undefined) step.durationMs = durationMs;
    if (usage) step.usage = usage;
    steps.push(step);
  }
  closeRun();
  return steps;
}

// ---------------------------------------------------------------------------
// Two transcripts, two turns

/** Fields listed per changed step; the rest are counted. */
export const MAX_FIELDS = 40;

export interface AlignedRow {
  op: AlignOpKind;
  a?: number;
  b?: number;
  /** Changed steps: the fields that differ. */
  fields?: FieldDiff[];
  moreFields?: number;
}

export interface TranscriptAlignment {
  a: Step[];
  b: Step[];
  rows: AlignedRow[];
  counts: Record<AlignOpKind, number>;
  approximate: boolean;
}

export interface AlignSide {
  frames: readonly Frame[];
  cwd?: string;
  protocol?: ProtocolName;
}

const looseKey = (s: Step) => `${s.dir} ${s.kind === "response" ? "response" : "message"} ${s.method ?? ""}`;
const isPrompt = (s: Step) => s.dir === "to-agent" && s.kind === "request" && s.method === AGENT_METHODS.session_prompt;

/** Aligns two transcripts' steps (see the top of the file). */
export function alignTranscripts(left: AlignSide, right: AlignSide, maxEdits = MAX_EDITS): TranscriptAlignment {
  const cwds = [left.cwd, right.cwd].filter((c): c is string => !!c);
  const a = stepsOf(left.frames, { cwds, protocol: left.protocol });
  const b = stepsOf(right.frames, { cwds, protocol: right.protocol });
  const { ops, approximate } = align(a, b, {
    key: (s) => s.key,
    same: (x, y) => x.text === y.text,
    loose: looseKey,
    maxEdits,
    segmentStart: isPrompt,
  });
  const counts: Record<AlignOpKind, number> = { same: 0, changed: 0, removed: 0, inserted: 0 };
  const rows = ops.map((op): AlignedRow => {
    counts[op.op]++;
    if (op.op !== "changed") return op;
    const fields = fieldDiffs(a[op.a!]!.content, b[op.b!]!.content);
    return {
      ...op,
      fields: fields.slice(0, MAX_FIELDS),
      ...(fields.length > MAX_FIELDS ? { moreFields: fields.length - MAX_FIELDS } : {}),
    };
  });
  return { a, b, rows, counts, approximate };
}

export interface TurnRange {
  index: number;
  sessionId: string;
  /** The prompt request's seq, and the last frame of the turn. */
  firstSeq: number;
  lastSeq: number;
  /** The prompt's text, shortened. */
  prompt: string;
}

/** The prompt turns of a transcript: from each prompt to its end (or to the next prompt). */
export function turnRanges(frames: readonly Frame[], protocol: ProtocolName): TurnRange[] {
  const turns = buildWaterfall(frames, protocol).turns;
  const last = frames.at(-1)?.seq ?? 0;
  const promptSeqs = new Set(turns.map((t) => t.promptSeq));
  const bySeq = new Map<number, Frame>();
  for (const f of frames) if (promptSeqs.has(f.seq)) bySeq.set(f.seq, f);
  return turns.map((t, i) => {
    const next = turns[i + 1]?.promptSeq;
    const end = t.end?.seq ?? (next !== undefined ? next - 1 : last);
    const m = bySeq.get(t.promptSeq)?.message;
    const p = isObject(m) && isObject(m.params) && Array.isArray(m.params.prompt) ? m.params.prompt : [];
    const text = p
      .map((b) => (isObject(b) && typeof b.text === "string" ? b.text : ""))
      .join(" ")
      .trim();
    return {
      index: i,
      sessionId: t.sessionId,
      firstSeq: t.promptSeq,
      lastSeq: Math.max(t.promptSeq, end),
      prompt: text.length > 80 ? `${text.slice(0, 79)}…` : text,
    };
  });
}

/** The frames of one turn: those of its session (or of none) between its prompt and its end. */
export function framesOfTurn(frames: readonly Frame[], turn: TurnRange): Frame[] {
  return frames.filter((f) => {
    if (f.seq < turn.firstSeq || f.seq > turn.lastSeq) return false;
    const m = f.message;
    const sessionId = isObject(m) && isObject(m.params) ? m.params.sessionId : undefined;
    return sessionId === undefined || sessionId === turn.sessionId;
  });
}

/** Two turns of one transcript, aligned like two transcripts. */
export function alignTurns(
  frames: readonly Frame[],
  x: number,
  y: number,
  cwd?: string,
  protocol: ProtocolName = DEFAULT_PROTOCOL,
): TranscriptAlignment {
  const turns = turnRanges(frames, protocol);
  const tx = turns[x];
  const ty = turns[y];
  return alignTranscripts(
    { frames: tx ? framesOfTurn(frames, tx) : [], cwd },
    { frames: ty ? framesOfTurn(frames, ty) : [], cwd },
  );
}
