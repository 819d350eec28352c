/** Codex app-server's turns for a comparison: each turn of each thread, from the thread view. */
import type { Frame } from "../../../protocol/frame";
import { str } from "../../../protocol/json";
import { parsePatch, patchStats } from "../../../folds/unified-diff";
import { APP_SERVER_ITEM_KIND, appServerItemTitle } from "../../../folds/codex-app-server/waterfall";
import {
  reduceAppServerFrames,
  type AsItem,
  type FileChangeItem,
  type MessageItem,
} from "../../../folds/codex-app-server/view";
import {
  fileChange,
  relativize,
  type FileChange,
  type TimingOf,
  type ToolSummary,
  type TurnAt,
} from "../../compare/turns";

/** An app-server tool item as a tool call: matched on its type (an MCP or dynamic tool: its name) and arguments. */
function appServerTool(item: AsItem, cwd: string | undefined): ToolSummary | undefined {
  const common = { toolCallId: item.id, ...(item.status ? { status: item.status } : {}), seq: item.seqs.first ?? 0 };
  const call = (name: string, title: string | undefined, args: unknown): ToolSummary => ({
    ...common,
    name,
    ...(title === undefined ? {} : { title: relativize(title, cwd) as string }),
    args: relativize(args, cwd),
  });
  if (item.type === "commandExecution") return call(item.type, item.command, { command: item.command });
  if (item.type === "fileChange")
    return call(
      item.type,
      item.changes.map((c) => c.path).join(", "),
      item.changes.map((c) => ({ path: c.path, kind: c.kind })),
    );
  if (item.type !== "other" || APP_SERVER_ITEM_KIND[item.itemType] !== "tool") return undefined;
  const { query, tool, arguments: args } = item.item;
  if (item.itemType === "webSearch") return call(item.itemType, str(query), { query });
  return call(str(tool) ?? item.itemType, appServerItemTitle(item.item), args ?? null);
}

/** A file change item's files: `diff` is an added file's content, a deleted one's, or an update's unified diff. */
function appServerFiles(item: FileChangeItem, cwd: string | undefined): FileChange[] {
  return item.changes.map((c) => {
    const path = relativize(c.path, cwd) as string;
    if (c.kind === "add") return fileChange(path, "fileChange", null, c.diff);
    if (c.kind === "delete") return fileChange(path, "fileChange", c.diff, "");
    const { added, removed } = patchStats(parsePatch(c.diff));
    return { path, source: "fileChange" as const, newText: c.diff, patch: c.diff, added, removed };
  });
}

/**
 * App-server turns, from the decoded view (lib/folds/codex-app-server/view.ts): the prompt is the user's
 * message, the answer the agent messages (one paragraph each), the stop reason the turn's final
 * status; tool items (command executions, file changes, MCP and other tools) are its tool calls.
 */
export function appServerTurns(frames: readonly Frame[], timingOf: TimingOf): TurnAt[] {
  const view = reduceAppServerFrames(frames);
  const out: TurnAt[] = [];
  for (const threadId of view.order) {
    const { cwd, turns } = view.threads[threadId]!;
    for (const t of turns) {
      const texts = (type: MessageItem["type"]) =>
        t.items.flatMap((i) => (i.type === type && i.text !== "" ? [i.text] : []));
      const timing = timingOf(t.seq);
      out.push({
        seq: t.seq,
        prompt: texts("userMessage").join("\n"),
        turn: {
          answer: texts("agentMessage").join("\n\n"),
          ...(t.status === "inProgress" ? {} : { stopReason: t.status }),
          ...(t.error ? { error: str(t.error.message) ?? "error" } : {}),
          tools: t.items.flatMap((i) => appServerTool(i, cwd) ?? []),
          files: t.items.flatMap((i) => (i.type === "fileChange" && i.completed ? appServerFiles(i, cwd) : [])),
          timing,
          usage: timing?.usage,
        },
      });
    }
  }
  return out;
}
