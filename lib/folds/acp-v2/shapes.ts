/**
 * v2's reshaped records, read into what a view shows: structured diffs (a list of file changes,
 * with an optional patch, instead of v1's one path with old and new text), permission subjects
 * (what a permission request is about: a tool call, a command, or an extension), and
 * `session/resume` with `replayFrom` (v1's session/load always replayed). Hostile input: each
 * reader takes what is well formed and says what is not.
 */
import { isObject, str } from "../../protocol/json";

export interface FileChange {
  /** add, delete, modify, move, copy, or an extension's. */
  operation: string;
  path: string;
  /** move and copy: where it came from. */
  oldPath?: string;
  fileType?: string;
}

export interface StructuredDiff {
  changes: FileChange[];
  patch?: { format: string; text: string };
  /** Entries that are not a change (skipped, as the schema's skip-invalid-items says). */
  skipped: number;
}

const PAIRED = new Set(["move", "copy"]);

/** A v2 `diff` tool-call content block; undefined when it is not one. */
export function structuredDiff(block: unknown): StructuredDiff | undefined {
  if (!isObject(block) || block.type !== "diff" || !Array.isArray(block.changes)) return undefined;
  const changes: FileChange[] = [];
  let skipped = 0;
  for (const c of block.changes) {
    const operation = isObject(c) ? str(c.operation) : undefined;
    const path = isObject(c) ? str(c.path) : undefined;
    const oldPath = isObject(c) ? str(c.oldPath) : undefined;
    if (!operation || !path || (PAIRED.has(operation) && !oldPath)) {
      skipped++;
      continue;
    }
    const fileType = str((c as Record<string, unknown>).fileType);
    changes.push({ operation, path, ...(oldPath ? { oldPath } : {}), ...(fileType ? { fileType } : {}) });
  }
  const p = block.patch;
  const format = isObject(p) ? str(p.format) : undefined;
  const text = isObject(p) ? str(p.text) : undefined;
  return { changes, ...(format && text !== undefined ? { patch: { format, text } } : {}), skipped };
}

export type PermissionSubject =
  | { type: "tool_call"; toolCallId?: string; title?: string }
  | { type: "command"; command: string; cwd: string; toolCallId?: string; terminalId?: string }
  | { type: string; other: true };

/** What a v2 `session/request_permission` is about; undefined when it names no subject. */
export function permissionSubject(params: unknown): PermissionSubject | undefined {
  const s = isObject(params) ? params.subject : undefined;
  if (!isObject(s)) return undefined;
  const type = str(s.type);
  if (!type) return undefined;
  if (type === "tool_call") {
    const call = isObject(s.toolCall) ? s.toolCall : {};
    const toolCallId = str(call.toolCallId);
    const title = str(call.title);
    return { type, ...(toolCallId ? { toolCallId } : {}), ...(title ? { title } : {}) };
  }
  if (type === "command") {
    const command = str(s.command);
    const cwd = str(s.cwd);
    if (command === undefined || cwd === undefined) return { type, other: true };
    const toolCallId = str(s.toolCallId);
    const terminalId = str(s.terminalId);
    return { type, command, cwd, ...(toolCallId ? { toolCallId } : {}), ...(terminalId ? { terminalId } : {}) };
  }
  return { type, other: true };
}

/** How a `session/resume` asks for history: none (omitted or null), from the start, or an extension's cursor. */
export function replayFromOf(params: unknown): "none" | "start" | { other: string } {
  const r = isObject(params) ? params.replayFrom : undefined;
  if (r === undefined || r === null) return "none";
  const type = isObject(r) ? str(r.type) : undefined;
  if (type === "start") return "start";
  return { other: type ?? "malformed" };
}
