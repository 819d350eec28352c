/**
 * Subagents (`subagent_update`, unstable): the parent session lists a card for each child it
 * announces; the child's own updates fold into its own SessionState, marked with its parent,
 * and the card shows them nested.
 */
import { isObject, str } from "../../protocol/json";
import type { Draft, Obj } from "./draft";
import { addItem, lastIndex, ownAt, ownSession, type Target } from "./items";
import { SeqList } from "./seq-list";
import type { SessionState, SubagentItem } from "./types";

const RUNNING_TOOL = new Set(["pending", "in_progress"]);

export function onSubagentUpdate(d: Draft, s: SessionState, tg: Target, seq: number, u: Obj): string | undefined {
  const child = str(u.sessionId);
  if (child === undefined) return "sessionId is not a string";
  if (child === s.sessionId) return "sessionId names the session itself";
  const i = lastIndex(tg.items, (it) => it.type === "subagent" && it.sessionId === child);
  let it: SubagentItem;
  if (i >= 0) {
    it = ownAt<SubagentItem>(d, tg, i, seq);
  } else {
    it = { type: "subagent", sessionId: child, seqs: SeqList.of(seq) };
    // Started by a tool call: the one `_meta` names, else the one running now.
    const named = isObject(u._meta) ? str(u._meta.toolCallId) : undefined;
    const j = lastIndex(
      tg.items,
      (x) => x.type === "tool_call" && (named ? x.toolCallId === named : RUNNING_TOOL.has(x.status ?? "pending")),
    );
    const tool = tg.items[j];
    if (tool?.type === "tool_call") it.toolCallId = tool.toolCallId;
    else if (named) it.toolCallId = named;
    addItem(d, tg, it);
  }
  for (const k of ["title", "cwd"] as const) {
    if (u[k] === null) delete it[k];
    else if (typeof u[k] === "string") it[k] = u[k];
  }
  if (u.state === null) {
    delete it.state;
    delete it.stopReason;
  } else if (isObject(u.state) && typeof u.state.state === "string") {
    it.state = u.state.state;
    const stop = str(u.state.stopReason);
    if (stop === undefined) delete it.stopReason;
    else it.stopReason = stop;
  }
  // The child: its own updates land in its own session, shown under this card.
  const cs = ownSession(d, child, seq);
  // A child never adopts its own ancestor (a cycle would nest forever).
  if (cs.parentSessionId === undefined && !isAncestor(d, child, s.sessionId)) cs.parentSessionId = s.sessionId;
  return undefined;
}

function isAncestor(d: Draft, candidate: string, of: string): boolean {
  let cur: string | undefined = of;
  for (let n = 0; cur !== undefined && n < 64; n++) {
    if (cur === candidate) return true;
    cur = Object.hasOwn(d.root.sessions, cur) ? d.root.sessions[cur]!.parentSessionId : undefined;
  }
  return false;
}

/**
 * Where a subagent card shows its session's conversation: undefined to show it
 * here, else why not. `within` lists the sessions whose items are being shown,
 * outermost first (the last holds the card). A session is shown once, under
 * the session that adopted it, and never inside itself, so an agent naming
 * sessions in each other's updates cannot make the cards multiply.
 */
export function subagentShownElsewhere(
  sessions: Readonly<Record<string, Pick<SessionState, "parentSessionId">>>,
  sessionId: string,
  within: readonly string[],
): string | undefined {
  if (within.includes(sessionId)) return "shown above";
  const parent = Object.hasOwn(sessions, sessionId) ? sessions[sessionId]!.parentSessionId : undefined;
  return parent !== undefined && parent !== within.at(-1) ? `shown under session ${parent}` : undefined;
}
