/**
 * Structural comparison of what an agent said in two runs: responses, session
 * updates and agent requests, with the byte noise normalised away (ids,
 * sessionIds, toolCallIds, timestamps, working directories, chunk boundaries).
 */
import { createTwoFilesPatch, diffArrays } from "diff";
import type { Frame } from "./frame";

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
}

const TIME_KEY = /^(ts|timestamp|time|createdAt|updatedAt|startedAt|endedAt|date)$/i;

class Normaliser {
  private readonly names = new Map<string, string>();
  private readonly counters = new Map<string, number>();

  /** Working directories of either run: a replayed agent reports the recorded one. */
  constructor(private readonly cwds: string[]) {}

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

  value(v: unknown, key?: string): unknown {
    if (typeof v === "string") {
      if (key === "sessionId") return this.alias("session", v);
      if (key === "toolCallId") return this.alias("tool", v);
      if (key && TIME_KEY.test(key)) return "<time>";
      return this.cwds.reduce((text, cwd) => text.split(cwd).join("<cwd>"), v);
    }
    if (typeof v === "number" && key && TIME_KEY.test(key)) return "<time>";
    if (Array.isArray(v)) return v.map((x) => this.value(x));
    if (typeof v === "object" && v !== null) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[k] = this.value((v as Record<string, unknown>)[k], k);
      return out;
    }
    return v;
  }
}

type Entry = Record<string, unknown>;

/** The agent's side of a run as a list of normalised entries. */
export function agentEntries(side: RunSide, cwds: string[] = side.cwd ? [side.cwd] : []): string[] {
  // Longest first, so a cwd inside another is replaced whole.
  const norm = new Normaliser([...cwds].sort((a, b) => b.length - a.length));
  const entries: Entry[] = [];
  // Request ordinals per method, so responses pair up by position, not id.
  const ordinals = new Map<string, number>();
  const requestOrdinal = new Map<string, string>();
  for (const f of side.frames) {
    const m = f.message as Record<string, unknown> | undefined;
    if (f.dir === "to-agent") {
      if (f.kind === "request" && f.method) {
        const n = (ordinals.get(f.method) ?? 0) + 1;
        ordinals.set(f.method, n);
        requestOrdinal.set(JSON.stringify(f.id), `${f.method} #${n}`);
      }
      continue;
    }
    if (f.kind === "response" && m) {
      const to = requestOrdinal.get(JSON.stringify(f.id)) ?? `unmatched ${f.method ?? "response"}`;
      entries.push(
        "error" in m
          ? { responseTo: to, error: norm.value(m.error) }
          : { responseTo: to, result: norm.value(m.result) },
      );
    } else if (f.kind === "notification" && m) {
      const params = m.params as
        { update?: { sessionUpdate?: string; content?: { type?: string; text?: string } } } | undefined;
      const update = params?.update;
      const last = entries.at(-1);
      // Chunk boundaries are transport noise: merge consecutive text chunks of one kind.
      if (
        f.method === "session/update" &&
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
    } else if (f.kind === "request" && m) {
      entries.push({ request: f.method, params: norm.value(m.params) });
    } else if (f.kind === "invalid") {
      entries.push({ invalid: norm.value(f.raw) });
    }
  }
  return entries.map((e) => JSON.stringify(e));
}

export function diffRuns(recorded: RunSide, actual: RunSide): DiffResult {
  const cwds = [recorded.cwd, actual.cwd].filter((c): c is string => !!c);
  const a = agentEntries(recorded, cwds);
  const b = agentEntries(actual, cwds);
  let added = 0;
  let removed = 0;
  for (const change of diffArrays(a, b)) {
    if (change.added) added += change.count ?? change.value.length;
    if (change.removed) removed += change.count ?? change.value.length;
  }
  const equal = added === 0 && removed === 0;
  const patch = equal
    ? ""
    : createTwoFilesPatch("recorded", "actual", `${a.join("\n")}\n`, `${b.join("\n")}\n`, undefined, undefined, {
        context: 2,
      });
  return { equal, recorded: a, actual: b, patch, added, removed };
}
