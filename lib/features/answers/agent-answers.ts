/**
 * Answering the agent's own requests from the browser: what each pending
 * request asks (read from its params, for its card), the response frames the
 * cards send, drafts for answering anything by hand, and a line diff for the
 * diffs tool calls carry.
 */
import type { Frame, JsonRpcId } from "../../protocol/frame";
import { errorFrame, resultFrame } from "../../protocol/jsonrpc";
import { denied } from "./policy";
import { isObject, str, num } from "../../protocol/json";
import { CLIENT_METHODS } from "../../protocol/methods";

type Obj = Record<string, unknown>;

export interface PermissionOptionView {
  optionId: string;
  name: string;
  kind?: string;
}

export interface ToolCallView {
  toolCallId?: string;
  title?: string;
  kind?: string;
  status?: string;
  locations: { path: string; line?: number }[];
  /** ToolCallContent items as sent: content blocks, diffs, terminals. */
  content: unknown[];
  rawInput?: unknown;
}

/**
 * What a v2 permission request is about (its `subject`; v1 has only `toolCall`): a tool call, a
 * command, or another type (`_`-prefixed or future), shown as sent.
 */
export type PermissionSubjectView =
  | { type: "tool_call"; toolCall: ToolCallView }
  | { type: "command"; command?: string; cwd?: string; toolCallId?: string; terminalId?: string }
  | { type: string; raw: Obj };

export type PendingView =
  | {
      kind: "permission";
      sessionId?: string;
      /** v1's tool call, or the one a v2 `tool_call` subject carries. */
      toolCall: ToolCallView;
      /** v2: the prompt's own title and description (not the subject's). */
      title?: string;
      description?: string;
      subject?: PermissionSubjectView;
      options: PermissionOptionView[];
    }
  | { kind: "fs-read"; path?: string; line?: number; limit?: number }
  | { kind: "fs-write"; path?: string; content?: string }
  | {
      kind: "terminal-create";
      command?: string;
      args: string[];
      cwd?: string;
      env: { name: string; value: string }[];
      outputByteLimit?: number;
    }
  | { kind: "terminal"; method: string; terminalId?: string }
  | {
      kind: "elicitation";
      mode?: string;
      message?: string;
      requestedSchema?: Obj;
      /** Why the requested schema is not rendered as a form (too large or deep): only decline or cancel. */
      schemaProblem?: string;
      /** The URL to show, only when it is http(s) and of sane length. */
      url?: string;
      /** Why a URL the agent sent is not shown as a link. */
      urlProblem?: string;
      elicitationId?: string;
    }
  | { kind: "other"; method?: string };

export function paramsOf(frame: Frame): Obj {
  const m = frame.message;
  return isObject(m) && isObject(m.params) ? m.params : {};
}

function toolCallView(v: unknown): ToolCallView {
  const t = isObject(v) ? v : {};
  const locations = Array.isArray(t.locations)
    ? t.locations
        .filter(isObject)
        .flatMap((l) =>
          typeof l.path === "string"
            ? [{ path: l.path, ...(num(l.line) !== undefined ? { line: num(l.line) } : {}) }]
            : [],
        )
    : [];
  return {
    toolCallId: str(t.toolCallId),
    title: str(t.title),
    kind: str(t.kind),
    status: str(t.status),
    locations,
    content: Array.isArray(t.content) ? t.content : [],
    rawInput: t.rawInput,
  };
}

function subjectView(v: unknown): PermissionSubjectView | undefined {
  if (!isObject(v) || typeof v.type !== "string") return undefined;
  if (v.type === "tool_call") return { type: "tool_call", toolCall: toolCallView(v.toolCall) };
  if (v.type === "command")
    return {
      type: "command",
      command: str(v.command),
      cwd: str(v.cwd),
      toolCallId: str(v.toolCallId),
      terminalId: str(v.terminalId),
    };
  return { type: v.type, raw: v };
}

/** A permission request's card: v1's tool call, or v2's subject with the prompt's own title. */
function permissionView(p: Obj): Extract<PendingView, { kind: "permission" }> {
  const subject = subjectView(p.subject);
  return {
    kind: "permission",
    sessionId: str(p.sessionId),
    toolCall: subject?.type === "tool_call" && "toolCall" in subject ? subject.toolCall : toolCallView(p.toolCall),
    ...(str(p.title) ? { title: str(p.title) } : {}),
    ...(str(p.description) ? { description: str(p.description) } : {}),
    ...(subject ? { subject } : {}),
    options: Array.isArray(p.options)
      ? p.options.filter(isObject).flatMap((o) =>
          typeof o.optionId === "string"
            ? [
                {
                  optionId: o.optionId,
                  name: str(o.name) ?? o.optionId,
                  ...(str(o.kind) ? { kind: str(o.kind) } : {}),
                },
              ]
            : [],
        )
      : [],
  };
}

/** What a pending agent request asks, for its card. */
export function describePending(frame: Frame): PendingView {
  const p = paramsOf(frame);
  switch (frame.method) {
    case CLIENT_METHODS.session_request_permission:
      return permissionView(p);
    case CLIENT_METHODS.fs_read_text_file:
      return { kind: "fs-read", path: str(p.path), line: num(p.line), limit: num(p.limit) };
    case CLIENT_METHODS.fs_write_text_file:
      return { kind: "fs-write", path: str(p.path), content: str(p.content) };
    case CLIENT_METHODS.terminal_create:
      return {
        kind: "terminal-create",
        command: str(p.command),
        args: Array.isArray(p.args) ? p.args.map(String) : [],
        cwd: str(p.cwd),
        env: Array.isArray(p.env)
          ? p.env.filter(isObject).map((e) => ({ name: String(e.name), value: String(e.value) }))
          : [],
        outputByteLimit: num(p.outputByteLimit),
      };
    case CLIENT_METHODS.terminal_output:
    case CLIENT_METHODS.terminal_wait_for_exit:
    case CLIENT_METHODS.terminal_kill:
    case CLIENT_METHODS.terminal_release:
      return { kind: "terminal", method: frame.method, terminalId: str(p.terminalId) };
    case CLIENT_METHODS.elicitation_create: {
      const schema = isObject(p.requestedSchema) ? p.requestedSchema : undefined;
      const schemaProblem = schema ? elicitationSchemaProblem(schema) : undefined;
      const url = p.url === undefined ? { url: undefined } : checkElicitationUrl(p.url);
      return {
        kind: "elicitation",
        mode: str(p.mode),
        message: str(p.message),
        requestedSchema: schemaProblem || !schema ? undefined : withoutPatterns(schema),
        schemaProblem,
        url: url.url,
        urlProblem: url.problem,
        elicitationId: str(p.elicitationId),
      };
    }
    default:
      return { kind: "other", method: frame.method };
  }
}

/**
 * The schema without its `pattern`s: an agent's regular expression is never run
 * in the page (one that does not compile would throw while rendering, one that
 * backtracks would freeze the tab); the agent checks what it asked for anyway.
 */
export function withoutPatterns(schema: Obj): Obj {
  const strip = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(strip)
      : isObject(v)
        ? Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (k === "pattern" ? [] : [[k, strip(x)]])))
        : v;
  return strip(schema) as Obj;
}

/** Bounds on an agent-supplied elicitation schema before a form is built from it. */
export const ELICITATION_LIMITS = { bytes: 32 * 1024, depth: 8, properties: 64, urlLength: 2048 } as const;

/** Why a requested schema is too big to render (bytes, nesting, fields), or undefined when it is fine. */
export function elicitationSchemaProblem(schema: unknown): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(schema);
  } catch {
    return "the requested schema cannot be read";
  }
  if (json === undefined) return "the requested schema cannot be read";
  if (json.length > ELICITATION_LIMITS.bytes)
    return `the requested schema is ${json.length} characters, over the ${ELICITATION_LIMITS.bytes} shown as a form`;
  let fields = 0;
  const walk = (v: unknown, depth: number): string | undefined => {
    if (depth > ELICITATION_LIMITS.depth)
      return `the requested schema nests deeper than ${ELICITATION_LIMITS.depth} levels`;
    if (Array.isArray(v)) {
      for (const x of v) {
        const bad = walk(x, depth + 1);
        if (bad) return bad;
      }
    } else if (isObject(v)) {
      if (isObject(v.properties)) fields += Object.keys(v.properties).length;
      if (fields > ELICITATION_LIMITS.properties)
        return `the requested schema has more than ${ELICITATION_LIMITS.properties} fields`;
      for (const x of Object.values(v)) {
        const bad = walk(x, depth + 1);
        if (bad) return bad;
      }
    }
    return undefined;
  };
  return walk(schema, 0);
}

/** An elicitation's URL, shown as a link only when it is http(s) and of sane length. */
export function checkElicitationUrl(raw: unknown): { url?: string; problem?: string } {
  if (typeof raw !== "string") return { problem: "the URL is not a string" };
  if (raw.length > ELICITATION_LIMITS.urlLength)
    return { problem: `the URL is ${raw.length} characters long, over ${ELICITATION_LIMITS.urlLength}` };
  // Nothing here can parse with URL (lib/ has no DOM or Node types): a strict shape instead.
  if (/[\u0000-\u0020\u007f-\u009f]/.test(raw)) return { problem: "the URL holds spaces or control characters" };
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== "http" && scheme !== "https")
    return {
      problem: `only http(s) links are shown, this one is ${scheme ? `${scheme.slice(0, 20)}:` : "not absolute"}`,
    };
  if (!/^https?:\/\/[^/?#\\]+([/?#][^\\]*)?$/i.test(raw)) return { problem: "the URL has no host" };
  return { url: raw };
}

/** The shell line a terminal/create would run, for display only. */
export function commandLine(v: { command?: string; args: string[] }): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return [v.command ?? "?", ...v.args].map(quote).join(" ");
}

const requestId = (frame: Frame): JsonRpcId => frame.id ?? null;

/** Picks a permission option (or cancels, with null). */
export function permissionAnswer(frame: Frame, optionId: string | null) {
  return resultFrame(requestId(frame), {
    outcome: optionId === null ? { outcome: "cancelled" } : { outcome: "selected", optionId },
  });
}

/** The error a "Deny" button sends: the same one the deny policy sends. */
export function denyAnswer(frame: Frame) {
  return errorFrame(requestId(frame), denied(frame.method ?? "request"));
}

export type ElicitationAction = "accept" | "decline" | "cancel";

export function elicitationAnswer(frame: Frame, action: ElicitationAction, content?: unknown) {
  return resultFrame(requestId(frame), action === "accept" && content !== undefined ? { action, content } : { action });
}

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/** A draft error response for the raw editor. */
export function errorDraft(frame: Frame): string {
  return pretty(
    errorFrame(requestId(frame), { code: -32000, message: `${frame.method ?? "request"} refused by the user` }),
  );
}
