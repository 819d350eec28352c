/** ACP's turns for a comparison: each session/prompt of each session, from the session view. */
import type { Frame } from "../../../protocol/frame";
import { CLIENT_METHODS } from "../../../protocol/methods";
import { str } from "../../../protocol/json";
import { reduceFrames, type ToolCallItem, type Turn } from "../../../folds/session-view";
import {
  fileChange,
  isObj,
  relativize,
  textOf,
  type FileChange,
  type Obj,
  type TimingOf,
  type ToolSummary,
  type TurnAt,
} from "../../compare/turns";

function toolSummary(item: ToolCallItem, cwd: string | undefined): ToolSummary {
  return {
    toolCallId: item.toolCallId,
    name: item.name ?? item.kind ?? item.title ?? "tool",
    title: item.title,
    status: item.status,
    args: relativize(item.rawInput ?? item.locations ?? null, cwd),
    seq: item.seqs.first ?? 0,
  };
}

/** Files changed during a turn: fs/write_text_file requests and diffs in tool call content, last content wins. */
function filesOf(frames: readonly Frame[], turn: Turn, tools: readonly ToolCallItem[], cwd: string | undefined) {
  const seen = new Map<string, { source: FileChange["source"]; oldText?: string | null; newText: string }>();
  const note = (raw: string, source: FileChange["source"], oldText: string | null | undefined, newText: string) => {
    const path = relativize(raw, cwd) as string;
    const before = seen.get(path);
    // The first known "before" stays: the change is from the turn's start.
    seen.set(path, { source, oldText: before ? before.oldText : oldText, newText });
  };
  const end = turn.endSeq ?? Infinity;
  for (const tool of tools)
    for (const c of tool.content ?? []) {
      const d = c as unknown as Obj;
      if (d.type === "diff" && typeof d.path === "string" && typeof d.newText === "string")
        note(d.path, "diff", typeof d.oldText === "string" ? d.oldText : null, d.newText);
    }
  for (const f of frames) {
    if (f.seq < turn.seq || f.seq > end) continue;
    if (f.dir !== "from-agent" || f.kind !== "request" || f.method !== CLIENT_METHODS.fs_write_text_file) continue;
    const params = isObj(f.message) && isObj(f.message.params) ? f.message.params : {};
    const path = str(params.path);
    const content = str(params.content);
    if (path !== undefined && content !== undefined) note(path, CLIENT_METHODS.fs_write_text_file, undefined, content);
  }
  return [...seen].map(([path, c]) => fileChange(path, c.source, c.oldText, c.newText));
}

export function acpTurns(frames: readonly Frame[], timingOf: TimingOf): TurnAt[] {
  const view = reduceFrames(frames);
  const out: TurnAt[] = [];
  for (const session of Object.values(view.sessions))
    for (const turn of session.turns) {
      const cwd = session.origin?.cwd;
      const items = turn.items;
      const tools = items.filter((i): i is ToolCallItem => i.type === "tool_call");
      const answer = items
        .filter((i) => i.type === "agent_message")
        .map((i) => textOf((i as { blocks: unknown[] }).blocks))
        // One paragraph per message, as the app-server's turns and `record` print them.
        .join("\n\n");
      const timing = timingOf(turn.seq);
      out.push({
        seq: turn.seq,
        prompt: textOf(turn.prompt),
        turn: {
          answer,
          ...(turn.stopReason === undefined ? {} : { stopReason: turn.stopReason }),
          ...(turn.error ? { error: turn.error.message } : {}),
          tools: tools.map((t) => toolSummary(t, cwd)),
          files: filesOf(frames, turn, tools, cwd),
          timing,
          usage: timing?.usage,
        },
      });
    }
  return out;
}
