/**
 * The v2 draft's own updates: `state_update` (a turn ends on idle, not on the prompt
 * response), `tool_call_content_chunk`, and agent-owned terminals (`terminal_update`,
 * `terminal_output_chunk`, output as base64).
 */
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { fromBase64 } from "../../protocol/base64";
import type { Frame } from "../../protocol/frame";
import { isObject, num, str } from "../../protocol/json";
import { compact, get, put, type Draft, type Obj } from "./draft";
import { addItem, lastIndex, ownAt, type Target } from "./items";
import { SeqList } from "./seq-list";
import { mergeToolCall } from "./tool-calls";
import { turnUsage } from "./turns";
import type { SessionState, StateItem, TerminalItem, TerminalView } from "./types";

/** Output kept per agent-owned terminal; older output is dropped first. */
export const TERMINAL_OUTPUT_CHARS = 256 * 1024;

/** `state_update`: idle ends the running turn (its stop reason and usage); other states are a line. */
export function onStateUpdate(d: Draft, s: SessionState, tg: Target, f: Frame, u: Obj): string | undefined {
  const state = str(u.state);
  if (state === undefined) return "state is not a string";
  s.activity = state;
  const stopReason = str(u.stopReason);
  if (state === "idle" && tg.turn) {
    const t = tg.turn;
    t.ended = true;
    t.endedBy = "state";
    t.endSeq = f.seq;
    t.endTs = f.ts;
    t.durationMs = f.ts - t.ts;
    t.stopReason = stopReason ?? null;
    const usage = turnUsage({ usage: u.usage });
    if (usage) t.usage = usage;
    t.emptyResponse = t.agentMessageChunks === 0 && t.stopReason === null;
    return undefined;
  }
  // A run of states folds into one line showing the latest.
  const last = tg.items.length - 1;
  const prev = tg.items[last];
  if (prev?.type === "state" && !!prev.outOfTurn === tg.outOfTurn) {
    const it = ownAt<StateItem>(d, tg, last, f.seq);
    it.state = state;
    if (stopReason === undefined) delete it.stopReason;
    else it.stopReason = stopReason;
    return undefined;
  }
  addItem<StateItem>(d, tg, compact({ type: "state", state, stopReason, seqs: SeqList.of(f.seq) }));
  return undefined;
}

/** `tool_call_content_chunk`: one content item appended to the tool call's content. */
export function onToolCallContentChunk(d: Draft, tg: Target, seq: number, u: Obj): string | undefined {
  if (typeof u.toolCallId !== "string") return "toolCallId is not a string";
  if (!isObject(u.content) || typeof u.content.type !== "string") return "content is not tool call content";
  const it = mergeToolCall(d, tg, seq, u.toolCallId, {});
  it.content = [...(it.content ?? []), u.content as unknown as ToolCallContent];
  return undefined;
}

/** Base64 to text (UTF-8, invalid sequences replaced); characters outside the alphabet are skipped. */
export const decodeBase64Text = (data: string): string => new TextDecoder().decode(fromBase64(data));

function capped(t: TerminalView, output: string): void {
  if (output.length > TERMINAL_OUTPUT_CHARS) {
    t.output = output.slice(output.length - TERMINAL_OUTPUT_CHARS);
    t.truncated = true;
  } else {
    t.output = output;
  }
}

function ownTerminal(d: Draft, tg: Target, seq: number, terminalId: string): TerminalView {
  const st = d.state();
  st.terminals = d.own(st.terminals);
  const cur = get(st.terminals, terminalId);
  const t = cur
    ? d.own(cur)
    : d.fresh<TerminalView>({ terminalId, truncated: false, agentOwned: true, seqs: SeqList.of(seq) });
  if (cur) t.seqs = t.seqs.append(seq);
  put(st.terminals, terminalId, t);
  // Shown in the conversation where it first appeared in this list.
  const i = lastIndex(tg.items, (it) => it.type === "terminal" && it.terminalId === terminalId);
  if (i < 0) addItem<TerminalItem>(d, tg, { type: "terminal", terminalId, seqs: SeqList.of(seq) });
  else ownAt<TerminalItem>(d, tg, i, seq);
  return t;
}

/** `terminal_update`: patch semantics; `output.data` is an authoritative snapshot. */
export function onTerminalUpdate(d: Draft, tg: Target, seq: number, u: Obj): string | undefined {
  const id = str(u.terminalId);
  if (id === undefined) return "terminalId is not a string";
  const t = ownTerminal(d, tg, seq, id);
  for (const k of ["command", "cwd"] as const) {
    if (u[k] === null) delete t[k];
    else if (typeof u[k] === "string") t[k] = u[k];
  }
  if (u.output === null) {
    delete t.output;
    t.truncated = false;
  } else if (isObject(u.output) && typeof u.output.data === "string") {
    t.truncated = false;
    capped(t, decodeBase64Text(u.output.data));
  }
  if (u.exitStatus === null) delete t.exitStatus;
  else if (isObject(u.exitStatus)) {
    const e = u.exitStatus;
    t.exitStatus = compact({
      exitCode: num(e.exitCode) ?? (e.exitCode === null ? null : undefined),
      signal: str(e.signal) ?? (e.signal === null ? null : undefined),
    });
  }
  return undefined;
}

/** `terminal_output_chunk`: base64 bytes appended to the terminal's output. */
export function onTerminalOutputChunk(d: Draft, tg: Target, seq: number, u: Obj): string | undefined {
  const id = str(u.terminalId);
  if (id === undefined) return "terminalId is not a string";
  if (typeof u.data !== "string") return "data is not a string";
  const t = ownTerminal(d, tg, seq, id);
  capped(t, (t.output ?? "") + decodeBase64Text(u.data));
  return undefined;
}
