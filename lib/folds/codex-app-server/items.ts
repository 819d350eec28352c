/**
 * The items of an app-server turn as the thread view shows them (lib/folds/codex-app-server/view.ts folds
 * them): how a `ThreadItem` of the schema, or the approval a server request asks before its item
 * exists, becomes an `AsItem`, and how an approval went once it no longer waits.
 */
import { APP_SERVER_REQUESTS } from "../../protocol/app-server-methods";
import type { JsonRpcId } from "../../protocol/frame";
import { isObject, num, obj, str, type JsonObject } from "../../protocol/json";
import { compact } from "../session-view/draft";
import { SeqList } from "../session-view/seq-list";

/** An approval (or question) the server asked about an item, and how it was answered. */
export interface ApprovalView {
  method: string;
  requestSeq: number;
  requestId: JsonRpcId;
  params: JsonObject;
  /** The client's answer: its result (e.g. `{decision: "accept"}`) or error. */
  result?: unknown;
  error?: unknown;
  responseSeq?: number;
  /** `serverRequest/resolved`: the server no longer waits (answered, or the turn ended). */
  resolvedSeq?: number;
}

export interface ItemBase {
  id: string;
  /** The frames it was decoded from, in arrival order. */
  seqs: SeqList;
  /** `item/completed` seen. */
  completed: boolean;
  /** The item's own status (inProgress, completed, failed, declined...), when it has one. */
  status?: string;
  approval?: ApprovalView;
}

export interface MessageItem extends ItemBase {
  type: "userMessage" | "agentMessage" | "plan";
  /** Markdown for the agent; the deltas so far until `item/completed` gives the final text. */
  text: string;
}

export interface ReasoningItem extends ItemBase {
  type: "reasoning";
  summary: string[];
  content: string[];
}

export interface CommandItem extends ItemBase {
  type: "commandExecution";
  command?: string;
  cwd?: string;
  /** Output deltas so far, or the item's `aggregatedOutput`. */
  output: string;
  exitCode?: number;
  durationMs?: number;
}

export interface FileChange {
  path: string;
  /** add, delete, update. */
  kind: string;
  movePath?: string;
  /** A unified diff for an update; the file's content for an add. */
  diff: string;
}

export interface FileChangeItem extends ItemBase {
  type: "fileChange";
  changes: FileChange[];
}

/** Any other item (MCP tool calls, web searches, images...), shown as sent. */
export interface OtherItem extends ItemBase {
  type: "other";
  itemType: string;
  item: JsonObject;
}

/** An `error`, `warning`, `configWarning` or `deprecationNotice` notification. */
export interface NoticeItem extends ItemBase {
  type: "notice";
  level: "error" | "warning";
  method: string;
  message: string;
  details?: string;
  /** An `error` the server will retry. */
  willRetry?: boolean;
}

/** What a permission profile names: network access, and paths to read or write. */
export interface PermissionProfile {
  network: boolean;
  read: string[];
  write: string[];
}

/**
 * An `item/permissions/requestApproval`: the model's request_permissions call, asking for more than
 * the sandbox allows. No ThreadItem reports it: the request is the item.
 */
export interface PermissionsItem extends ItemBase, PermissionProfile {
  type: "permissions";
  reason?: string;
  cwd?: string;
}

export type AsItem =
  MessageItem | ReasoningItem | CommandItem | FileChangeItem | PermissionsItem | OtherItem | NoticeItem;

export function placeholder(id: string, itemType: string, approval: ApprovalView, seq: number): AsItem {
  const base = { id, seqs: SeqList.of(seq), completed: false, approval };
  const p = approval.params;
  if (itemType === "commandExecution")
    return compact<CommandItem>({
      ...base,
      type: "commandExecution",
      command: commandText(p.command),
      cwd: str(p.cwd),
      output: "",
    });
  if (itemType === "fileChange") return { ...base, type: "fileChange", changes: changesOf(p.changes ?? p.fileChanges) };
  if (itemType === "permissions")
    return compact<PermissionsItem>({
      ...base,
      type: "permissions",
      reason: str(p.reason),
      cwd: str(p.cwd),
      ...permissionProfile(p.permissions),
    });
  return { ...base, type: "other", itemType, item: p };
}

/**
 * A RequestPermissionProfile (asked) or GrantedPermissionProfile (answered): `fileSystem.read` and
 * `.write` list paths, and Codex 0.171 repeats them in `fileSystem.entries` ({path: {path}, access}).
 */
export function permissionProfile(v: unknown): PermissionProfile {
  const profile = obj(v);
  const fs = obj(profile.fileSystem);
  const entries = Array.isArray(fs.entries) ? fs.entries.filter(isObject) : [];
  const paths = (access: string) => [
    ...new Set([
      ...(strings(fs[access]) ?? []),
      ...entries.filter((e) => e.access === access).flatMap((e) => str(obj(e.path).path) ?? str(e.path) ?? []),
    ]),
  ];
  return { network: obj(profile.network).enabled === true, read: paths("read"), write: paths("write") };
}

/** A permissions request's answer in words: what was granted and for how long, or that nothing was. */
export function grantOutcome(result: unknown): string {
  const r = obj(result);
  const granted = permissionProfile(r.permissions);
  const what = [granted.network ? "network" : "", ...granted.read, ...granted.write].filter(Boolean);
  // Granting nothing is how a client says no.
  if (what.length === 0) return "declined (nothing granted)";
  return `granted for the ${r.scope === "session" ? "session" : "turn"}: ${what.join(", ")}`;
}

/** How an approval went, once it no longer waits: the decision, the permissions granted, or why none came. */
export function approvalOutcome(a: ApprovalView): string {
  if (a.error !== undefined) return "answered with an error";
  if (a.result !== undefined && a.method === APP_SERVER_REQUESTS.permissions_approval) return grantOutcome(a.result);
  const decision = obj(a.result).decision;
  if (decision !== undefined)
    return typeof decision === "string" ? decision : (Object.keys(obj(decision))[0] ?? "answered");
  if (a.result !== undefined) return "answered";
  return a.resolvedSeq !== undefined ? "no longer asked" : "not answered";
}

export function decodeItem(item: JsonObject, prev: AsItem | undefined, completed: boolean, seq: number): AsItem {
  const id = str(item.id)!;
  const base = compact({
    id,
    seqs: prev ? prev.seqs : SeqList.of(seq),
    completed: completed || (prev?.completed ?? false),
    status: str(item.status) ?? prev?.status,
    approval: prev?.approval,
  });
  const type = str(item.type) ?? "(no type)";
  switch (type) {
    case "userMessage":
      return { ...base, type, text: userText(item.content) };
    case "agentMessage":
    case "plan": {
      const sofar = prev?.type === type ? prev.text : "";
      // The deltas are the text until the item completes with the final one.
      return { ...base, type, text: completed ? (str(item.text) ?? sofar) : sofar || (str(item.text) ?? "") };
    }
    case "reasoning": {
      const r = prev?.type === "reasoning" ? prev : undefined;
      const summary = strings(item.summary) ?? [];
      const content = strings(item.content) ?? [];
      return {
        ...base,
        type,
        summary: summary.length > 0 || completed ? summary : (r?.summary ?? []),
        content: content.length > 0 || completed ? content : (r?.content ?? []),
      };
    }
    case "commandExecution": {
      const c = prev?.type === "commandExecution" ? prev : undefined;
      return compact<CommandItem>({
        ...base,
        type,
        command: commandText(item.command) ?? c?.command,
        cwd: str(item.cwd) ?? c?.cwd,
        output: str(item.aggregatedOutput) ?? c?.output ?? "",
        exitCode: num(item.exitCode),
        durationMs: num(item.durationMs),
      });
    }
    case "fileChange": {
      const changes = changesOf(item.changes);
      return { ...base, type, changes: changes.length > 0 || prev?.type !== "fileChange" ? changes : prev.changes };
    }
    default:
      return { ...base, type: "other", itemType: type, item };
  }
}

function changesOf(v: unknown): FileChange[] {
  // v2: an array of {path, kind: {type}, diff}; the legacy approvals: a map from path to change.
  const entries = Array.isArray(v)
    ? v.filter(isObject).map((c) => [str(c.path) ?? "", c] as const)
    : Object.entries(obj(v)).map(([path, c]) => [path, obj(c)] as const);
  return entries.map(([path, c]) => {
    const kind = isObject(c.kind) ? c.kind : { type: c.type ?? c.kind };
    return compact<FileChange>({
      path,
      kind: str(kind.type) ?? "update",
      movePath: str(kind.move_path) ?? str(c.move_path),
      diff: str(c.diff) ?? str(c.unified_diff) ?? str(c.content) ?? "",
    });
  });
}

const userText = (content: unknown): string =>
  (Array.isArray(content) ? content.filter(isObject) : [])
    .map((c) => (c.type === "text" ? (str(c.text) ?? "") : `[${str(c.type) ?? "input"}]`))
    .join("\n");

/** A v2 command is a string; a legacy one an argv array. */
const commandText = (v: unknown): string | undefined =>
  typeof v === "string" ? v : Array.isArray(v) ? v.map(String).join(" ") : undefined;

export const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;

export function fresh(id: string, seq: number): ItemBase {
  return { id, seqs: SeqList.of(seq), completed: false };
}
