/**
 * Structural comparison of what an agent said in two runs: responses, session
 * updates and agent requests, with the byte noise normalised away by shape
 * (request ids, session and tool call ids, UUIDs anywhere, random ids under
 * `_meta`, timestamps, durations, working directories, chunk boundaries; for
 * the app-server: thread, turn, item and process ids, the rollout file's time),
 * over the same window on both sides, minus paths the user ignores.
 */
import { createTwoFilesPatch } from "diff";
import type { Frame } from "../../protocol/frame";
import { dropPath, parseIgnorePath } from "../../contracts/ignore-paths";
import { CLIENT_METHODS } from "../../protocol/methods";
import { DEFAULT_PROTOCOL, type ProtocolName } from "../../protocol/protocols";
import { specOf } from "../protocols/registry";
import type { DiffChange } from "../../contracts/reports";
import { align, fieldDiffs, Normaliser } from "./transcript-align";

export { fieldDiffs, parseIgnorePath };

export interface RunSide {
  frames: readonly Frame[];
  /** The agent's working directory in that run. */
  cwd?: string;
}

export interface DiffResult {
  equal: boolean;
  /** Normalised entries of each side, one JSON text per entry. */
  recorded: string[];
  actual: string[];
  /** A unified diff of the two, empty when equal. */
  patch: string;
  /** Counts of entries only in one side. */
  removed: number;
  added: number;
  /** The differences entry by entry, for a side-by-side view (empty when equal). */
  changes: DiffChange[];
}

/** Bounds, so a run that went completely differently still makes a small answer. */
const MAX_CHANGES = 200;
const MAX_FIELDS = 40;

export interface DiffOptions {
  /**
   * "last-response": each side ends with the answer to the client's last
   * request (a live re-run stops listening there; what an agent sends later,
   * such as a late `available_commands_update`, is left out on both sides).
   */
  window?: "all" | "last-response";
  /**
   * The runs' protocol: whose ids are run-specific (the Normaliser); in the app-server's, a turn
   * answers at once and ends with its `turn/completed`, so the "last-response" window reaches the
   * last turn's end.
   */
  protocol?: ProtocolName;
  /** Dot paths into an entry (`params.update._meta.x`, `*` one key, `**` any depth) left out. */
  ignore?: readonly string[];
  /** State updates (session and kind) both sides have; others are left out (set by diffRuns). */
  comparableStates?: ReadonlySet<string>;
}

type Entry = Record<string, unknown>;

/** The frames up to the agent's answer to the client's last request (or the last turn's end, if later, where a turn ends by a notification). */
function windowed(frames: readonly Frame[], protocol: ProtocolName): readonly Frame[] {
  const last = frames.findLast((f) => f.dir === "to-agent" && f.kind === "request");
  if (!last) return frames;
  const key = JSON.stringify(last.id);
  const answer = frames.findIndex(
    (f) => f.dir === "from-agent" && f.kind === "response" && JSON.stringify(f.id) === key,
  );
  if (answer < 0) return frames;
  const ending = specOf(protocol).turnEndNotification;
  const turnEnd = ending ? frames.findLastIndex((f) => f.kind === "notification" && f.method === ending) : -1;
  return frames.slice(0, Math.max(answer, turnEnd) + 1);
}

/**
 * Updates that restate the session's state rather than tell an event: an agent sends them when it
 * likes (Qwen Code's commands list arrives some 500 ms after a prompt's answer, or before it), so
 * their position says nothing. They are compared by their last value per session, after the rest.
 */
const STATE_UPDATES = new Set([
  "available_commands_update",
  "current_mode_update",
  "config_option_update",
  "session_info_update",
  "usage_update",
]);

function stateUpdateKey(f: Frame): string | undefined {
  if (f.dir !== "from-agent" || f.kind !== "notification" || f.method !== CLIENT_METHODS.session_update)
    return undefined;
  const params = (f.message as { params?: { sessionId?: unknown; update?: { sessionUpdate?: unknown } } } | undefined)
    ?.params;
  const kind = params?.update?.sessionUpdate;
  return typeof kind === "string" && STATE_UPDATES.has(kind) ? `${String(params?.sessionId)} ${kind}` : undefined;
}

/** The last state update of each kind per session, over the whole run (see STATE_UPDATES). */
function lastStates(frames: readonly Frame[]): Map<string, Frame> {
  const last = new Map<string, Frame>();
  for (const f of frames) {
    const key = stateUpdateKey(f);
    if (key) last.set(key, f);
  }
  return last;
}

/**
 * Answers that race the notifications of the work they start (ProtocolSpec.answeredWhileWorking):
 * each is put right after the first such notification following its request, wherever it came.
 * Anchored on the agent's own notification, not on when the client sent the request, which moves
 * with the client (a re-run sends at once; other notifications fall before or after it).
 */
class RacingAnswers {
  private readonly waiting: { key: string; notification: string; answer?: Entry; arrivedAt?: number; at?: number }[] =
    [];
  private readonly placed: { at: number; entry: Entry }[] = [];

  constructor(private readonly startedBy: ReadonlyMap<string, string> | undefined) {}

  sent(method: string, key: string): void {
    const notification = this.startedBy?.get(method);
    if (notification) this.waiting.push({ key, notification });
  }

  /** Whether the answer was taken (held until its notification, or placed after it). */
  answered(key: string, entry: Entry, entries: readonly Entry[]): boolean {
    const i = this.waiting.findIndex((w) => w.key === key);
    if (i < 0) return false;
    const w = this.waiting[i]!;
    if (w.at === undefined) {
      w.answer = entry;
      w.arrivedAt = entries.length;
      return true;
    }
    this.placed.push({ at: w.at, entry });
    this.waiting.splice(i, 1);
    return true;
  }

  /** After a notification entry was added: the first request it starts the work of. */
  notified(method: string, entries: Entry[]): void {
    const i = this.waiting.findIndex((w) => w.notification === method && w.at === undefined);
    if (i < 0) return;
    const w = this.waiting[i]!;
    if (w.answer) {
      entries.push(w.answer);
      this.waiting.splice(i, 1);
    } else w.at = entries.length;
  }

  /** Puts the answers placed after their notification; one whose notification never came stays where it came. */
  place(entries: Entry[]): void {
    for (const w of this.waiting) if (w.answer) this.placed.push({ at: w.arrivedAt!, entry: w.answer });
    // Last place first, so each earlier place still indexes the entries it was taken from.
    const byPlace = [...this.placed].sort((x, y) => x.at - y.at).reverse();
    for (const { at, entry } of byPlace) entries.splice(at, 0, entry);
  }
}

/** The agent's side of a run as a list of normalised entries. */
export function agentEntries(
  side: RunSide,
  cwds: string[] = side.cwd ? [side.cwd] : [],
  options: DiffOptions = {},
): string[] {
  const protocol = options.protocol ?? DEFAULT_PROTOCOL;
  const norm = new Normaliser(cwds, options.protocol);
  const entries: Entry[] = [];
  // Request ordinals per method, so responses pair up by position, not id.
  const ordinals = new Map<string, number>();
  const requestOrdinal = new Map<string, string>();
  const racing = new RacingAnswers(specOf(protocol).answeredWhileWorking);
  const frames = options.window === "last-response" ? windowed(side.frames, protocol) : side.frames;
  for (const f of frames) {
    if (stateUpdateKey(f)) continue;
    const m = f.message as Record<string, unknown> | undefined;
    if (f.dir === "to-agent") {
      if (f.kind === "request" && f.method) {
        const n = (ordinals.get(f.method) ?? 0) + 1;
        ordinals.set(f.method, n);
        requestOrdinal.set(JSON.stringify(f.id), `${f.method} #${n}`);
        racing.sent(f.method, JSON.stringify(f.id));
      }
      continue;
    }
    if (f.kind === "response" && m) {
      const key = JSON.stringify(f.id);
      const to = requestOrdinal.get(key) ?? `unmatched ${f.method ?? "response"}`;
      const entry =
        "error" in m
          ? { responseTo: to, error: norm.value(m.error) }
          : { responseTo: to, result: norm.value(m.result) };
      if (!racing.answered(key, entry, entries)) entries.push(entry);
    } else if (f.kind === "notification" && m) {
      const params = m.params as
        { update?: { sessionUpdate?: string; content?: { type?: string; text?: string } } } | undefined;
      const update = params?.update;
      const last = entries.at(-1);
      // Chunk boundaries are transport noise: merge consecutive text chunks of one kind.
      if (
        f.method === CLIENT_METHODS.session_update &&
        update &&
        (update.sessionUpdate === "agent_message_chunk" || update.sessionUpdate === "agent_thought_chunk") &&
        update.content?.type === "text"
      ) {
        if (last && last.chunks === update.sessionUpdate) {
          last.text = `${last.text as string}${update.content.text ?? ""}`;
          continue;
        }
        entries.push({ chunks: update.sessionUpdate, text: norm.value(update.content.text ?? "") });
        continue;
      }
      entries.push({ notification: f.method, params: norm.value(m.params) });
      if (f.method) racing.notified(f.method, entries);
    } else if (f.kind === "request" && m) {
      entries.push({ request: f.method, params: norm.value(m.params) });
    } else if (f.kind === "invalid") {
      entries.push({ invalid: norm.value(f.raw) });
    }
  }
  racing.place(entries);
  const states = lastStates(side.frames);
  for (const key of [...states.keys()].sort()) {
    if (options.comparableStates && !options.comparableStates.has(key)) continue;
    entries.push({ lastState: norm.value((states.get(key)!.message as { params?: unknown }).params) });
  }
  const ignore = (options.ignore ?? []).map(parseIgnorePath).filter((p): p is string[] => !!p);
  for (const e of entries) for (const path of ignore) dropPath(e, path);
  return entries.map((e) => JSON.stringify(e));
}

export function diffRuns(recorded: RunSide, actual: RunSide, options: DiffOptions = {}): DiffResult {
  const cwds = [recorded.cwd, actual.cwd].filter((c): c is string => !!c);
  // A state update one side never got (the run ended before the agent sent it) is no difference.
  const recordedStates = lastStates(recorded.frames);
  const comparableStates = new Set([...lastStates(actual.frames).keys()].filter((k) => recordedStates.has(k)));
  const a = agentEntries(recorded, cwds, { ...options, comparableStates });
  const b = agentEntries(actual, cwds, { ...options, comparableStates });
  const ops = align(a, b, { key: (e) => entryLabel(JSON.parse(e) as Entry), same: (x, y) => x === y }).ops;
  // A changed entry is one removed and one added, as in the patch.
  let added = 0;
  let removed = 0;
  for (const { op } of ops) {
    if (op === "inserted" || op === "changed") added++;
    if (op === "removed" || op === "changed") removed++;
  }
  const equal = added === 0 && removed === 0;
  const changes = equal ? [] : structuralChanges(a, b, ops);
  const patch = equal
    ? ""
    : createTwoFilesPatch("recorded", "actual", `${a.join("\n")}\n`, `${b.join("\n")}\n`, undefined, undefined, {
        context: 2,
      });
  return { equal, recorded: a, actual: b, patch, added, removed, changes };
}

function entryLabel(e: Entry): string {
  if (typeof e.responseTo === "string") return `response to ${e.responseTo}${"error" in e ? " (error)" : ""}`;
  if (typeof e.chunks === "string") return `session/update ${e.chunks}`;
  if (typeof e.notification === "string") {
    const update = (e.params as { update?: { sessionUpdate?: unknown } } | undefined)?.update?.sessionUpdate;
    return typeof update === "string" ? `${e.notification} ${update}` : e.notification;
  }
  if (typeof e.request === "string") return `request ${e.request}`;
  return "invalid line";
}

function changed(a: string, b: string, recordedIndex: number, actualIndex: number): DiffChange {
  const ra = JSON.parse(a) as Entry;
  const rb = JSON.parse(b) as Entry;
  const fields = fieldDiffs(ra, rb);
  const la = entryLabel(ra);
  const lb = entryLabel(rb);
  return {
    kind: "changed",
    label: la === lb ? la : `${la} → ${lb}`,
    recordedIndex,
    actualIndex,
    fields: fields.slice(0, MAX_FIELDS),
    ...(fields.length > MAX_FIELDS ? { moreFields: fields.length - MAX_FIELDS } : {}),
  };
}

/**
 * The differences entry by entry: the two lists aligned by label
 * (transcript-align.ts, the one diff engine); aligned entries that differ are
 * "changed", the rest "missing" (only recorded) or "new" (only live).
 */
export function structuralChanges(
  a: readonly string[],
  b: readonly string[],
  ops = align(a, b, { key: (e) => entryLabel(JSON.parse(e) as Entry), same: (x, y) => x === y }).ops,
): DiffChange[] {
  const out: DiffChange[] = [];
  for (const op of ops) {
    if (out.length >= MAX_CHANGES) break;
    if (op.op === "changed") out.push(changed(a[op.a!]!, b[op.b!]!, op.a!, op.b!));
    else if (op.op === "removed") {
      const e = JSON.parse(a[op.a!]!) as Entry;
      out.push({ kind: "missing", label: entryLabel(e), recordedIndex: op.a!, fields: [{ path: "", recorded: e }] });
    } else if (op.op === "inserted") {
      const e = JSON.parse(b[op.b!]!) as Entry;
      out.push({ kind: "new", label: entryLabel(e), actualIndex: op.b!, fields: [{ path: "", actual: e }] });
    }
  }
  return out;
}
