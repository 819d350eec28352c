/**
 * The compose side of the playground: which agent methods can be composed
 * (the SDK's AGENT_METHODS, stable or with unstable ones, each tied to its
 * schema definition; passed in, since a value import of the SDK would put
 * its validators in the page), whether the agent advertises each (from its initialize
 * result and session) or refused it (-32601), what to prefill from what the
 * agent said, which values to suggest per field, and warnings the schema
 * cannot give (a content type or MCP transport the agent did not advertise, a
 * client capability whose policy is "deny"). For Codex's app-server: its
 * client requests and notifications from its schema, grouped, prefilled with
 * the current thread and turn. Each protocol's spec holds its rules (ACP_COMPOSE_RULES, APP_SERVER_COMPOSE_RULES).
 */
import { agentCapabilities, currentSession, type AgentFacts, type LogFolds } from "../../folds/agent-facts";
import { DEFAULT_CLIENT_CAPABILITIES } from "../../protocol/client-capabilities";
import { parseAuthMethods } from "../connect/auth-methods";
import { initializeParams, V2_AUTH_LOGIN } from "../connect/handshake";
import type { Policy } from "../../contracts/policies";
import { initialValue, type Defs, type FieldNode, type Path } from "./schema-form";
import { isObject } from "../../protocol/json";
import { AGENT_METHODS, CLIENT_METHODS } from "../../protocol/methods";
import type { AppServerSchemaFile } from "../../protocol/schema-app-server";
import { appServerInitializeParams } from "../protocols/codex-app-server/handshake";
import type { AppServerConversation } from "../protocols/codex-app-server/conversation";

export interface MethodSpec {
  method: string;
  /** The schema definition of its params, e.g. "PromptRequest"; undefined: it takes none. */
  def: string | undefined;
  notification: boolean;
  /** Only in the SDK's unstable surface. */
  unstable: boolean;
  /** Where the picker lists it ("thread", "turn", "config"...), when the protocol groups its methods. */
  group?: string;
}

/**
 * Schema sides the client composes: methods the agent answers, and protocol ones ($/cancel_request) either
 * side sends. "client" methods are the agent's requests (answered on their cards) and "proxy" ones pass
 * between proxies, never from a client.
 */
export const COMPOSED_SIDES: ReadonlySet<string> = new Set(["agent", "protocol"]);

/**
 * The agent methods to offer, in the SDK's order (`methods`: AGENT_METHODS of
 * the surface shown; `stable`: those of the stable one), with their params
 * definitions from `defs`.
 */
export function composeMethods(
  defs: Defs,
  methods: readonly string[],
  stable: readonly string[],
): (MethodSpec & { def: string })[] {
  const byMethod = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    if (typeof def !== "object" || !COMPOSED_SIDES.has(def["x-side"] as string) || typeof def["x-method"] !== "string")
      continue;
    if (name.endsWith("Request") || name.endsWith("Notification")) byMethod.set(def["x-method"], name);
  }
  return methods.flatMap((method) => {
    const def = byMethod.get(method);
    return def ? [{ method, def, notification: def.endsWith("Notification"), unstable: !stable.includes(method) }] : [];
  });
}

// ---------------------------------------------------------------------------
// Advertised or not

export type SupportState = "baseline" | "advertised" | "not-advertised" | "unknown" | "unsupported";

export interface Support {
  state: SupportState;
  /** Where that comes from, for a tooltip / the line beside the form. */
  reason: string;
}

/** v2's authenticate and logout (not in lib/protocol/methods.ts, which lists v1's). */
/** The auth methods of the initialize result, read as Connect reads them. */
const authMethods = (facts: AgentFacts) => parseAuthMethods(facts.initialize?.result);
const V2_AUTH_LOGOUT = "auth/logout";

/** Methods every agent must answer. */
const BASELINE = new Set<string>([
  AGENT_METHODS.initialize,
  AGENT_METHODS.session_new,
  AGENT_METHODS.session_prompt,
  AGENT_METHODS.session_cancel,
]);

/** Unstable methods gated by a `sessionCapabilities` key. */
const SESSION_CAPABILITY: Record<string, string> = {
  [AGENT_METHODS.session_list]: "list",
  [AGENT_METHODS.session_resume]: "resume",
  [AGENT_METHODS.session_close]: "close",
  [AGENT_METHODS.session_delete]: "delete",
  [AGENT_METHODS.session_fork]: "fork",
  [AGENT_METHODS.session_archive]: "archive",
  [AGENT_METHODS.session_unarchive]: "archive",
  [AGENT_METHODS.session_status]: "status",
  [AGENT_METHODS.session_set_title]: "title",
};

export function methodSupport(method: string, facts: AgentFacts): Support {
  const refusedAt = facts.unsupported[method];
  if (refusedAt !== undefined)
    return { state: "unsupported", reason: `not supported by this agent (answered -32601, frame #${refusedAt})` };
  if (BASELINE.has(method)) return { state: "baseline", reason: "every ACP agent answers it" };
  const caps = agentCapabilities(facts);
  if (!caps) return { state: "unknown", reason: "not known before the initialize result" };
  const yes = (reason: string): Support => ({ state: "advertised", reason });
  const no = (reason: string): Support => ({ state: "not-advertised", reason });
  if (method === AGENT_METHODS.session_load)
    return caps.loadSession ? yes("agentCapabilities.loadSession") : no("agentCapabilities.loadSession is not set");
  if (method === AGENT_METHODS.authenticate || method === V2_AUTH_LOGIN || method === V2_AUTH_LOGOUT) {
    const n = authMethods(facts).length;
    return n
      ? yes(`${n} auth method${n === 1 ? "" : "s"} in the initialize result`)
      : no("the initialize result lists no authMethods");
  }
  if (method === AGENT_METHODS.logout)
    return caps.logout ? yes("agentCapabilities.auth.logout") : no("agentCapabilities.auth.logout is not set");
  const key = SESSION_CAPABILITY[method];
  if (key)
    return caps.session.includes(key)
      ? yes(`agentCapabilities.sessionCapabilities.${key}`)
      : no(`agentCapabilities.sessionCapabilities.${key} is not set`);
  if (method === AGENT_METHODS.session_set_mode) {
    const n = currentSession(facts).availableModes?.length ?? 0;
    return n ? yes(`${n} modes in the session`) : no("the session has no modes");
  }
  if (method === AGENT_METHODS.session_set_config_option) {
    const n = currentSession(facts).configOptions?.length ?? 0;
    return n ? yes(`${n} config options in the session`) : no("the session has no configOptions");
  }
  if (method.startsWith("providers/"))
    return caps.raw.providers ? yes("agentCapabilities.providers") : no("agentCapabilities.providers is not set");
  return { state: "unknown", reason: "no capability says" };
}

// ---------------------------------------------------------------------------
// Prefill and suggestions

export interface PrefillContext {
  /** The session's working directory: the first workspace root (or the agent's cwd). */
  cwd: string;
  /** The protocol version of the schema the forms are built from (1, or 2 once v2 was negotiated). */
  protocolVersion: number;
}

function hasField(node: FieldNode, name: string): boolean {
  if (node.kind === "object") return node.fields.some((f) => f.name === name);
  return node.kind === "union" && node.variants.some((v) => hasField(v.node, name));
}

/** A select option's value and name from a config option, flattening groups. */
function configValues(option: unknown): { value: string; name: string }[] {
  const options = isObject(option) ? option.options : undefined;
  if (!Array.isArray(options)) return [];
  return options
    .flatMap((o) =>
      isObject(o) && Array.isArray(o.options) ? (o.options as unknown[]).filter(isObject) : isObject(o) ? [o] : [],
    )
    .flatMap((o) =>
      typeof o.value === "string" ? [{ value: o.value, name: typeof o.name === "string" ? o.name : o.value }] : [],
    );
}

/** Params to start from: the schema's required fields, filled from what the agent said. */
export function prefillParams(method: string, node: FieldNode, facts: AgentFacts, ctx: PrefillContext): unknown {
  const base = initialValue(node);
  const v: Record<string, unknown> = isObject(base) ? { ...base } : {};
  const session = currentSession(facts);
  if (facts.sessionId !== undefined && hasField(node, "sessionId")) v.sessionId = facts.sessionId;
  // The current session's own cwd first: a load, resume or fork of it means that directory.
  if (hasField(node, "cwd") && (v.cwd === "" || v.cwd === undefined) && method !== AGENT_METHODS.session_list)
    v.cwd = session.cwd ?? ctx.cwd;
  switch (method) {
    case AGENT_METHODS.initialize:
      // The handshake's own params, in the form's shape (v2's has `info`), for the version asked.
      return {
        ...v,
        ...initializeParams({
          protocolVersion: hasField(node, "info") ? 2 : 1,
          clientCapabilities: DEFAULT_CLIENT_CAPABILITIES,
        }),
        protocolVersion: ctx.protocolVersion,
      };
    case AGENT_METHODS.authenticate:
    case V2_AUTH_LOGIN: {
      const first = authMethods(facts)[0];
      return first ? { ...v, methodId: first.id } : v;
    }
    case AGENT_METHODS.session_set_mode: {
      const modes = session.availableModes ?? [];
      // The first mode that is not the current one: sending it changes something.
      const pick = modes.find((m) => m.id !== session.currentModeId) ?? modes[0];
      return pick ? { ...v, modeId: pick.id } : v;
    }
    case AGENT_METHODS.session_set_config_option: {
      const option = session.configOptions?.[0] as unknown;
      if (!isObject(option) || typeof option.id !== "string") return v;
      if (option.type === "boolean")
        return { sessionId: v.sessionId, configId: option.id, type: "boolean", value: option.currentValue === true };
      const { type: _tag, ...rest } = v;
      return {
        ...rest,
        configId: option.id,
        value: typeof option.currentValue === "string" ? option.currentValue : (configValues(option)[0]?.value ?? ""),
      };
    }
    case AGENT_METHODS.session_prompt:
      return { ...v, prompt: [{ type: "text", text: "" }] };
    default:
      return v;
  }
}

export interface Suggestion {
  value: string;
  label: string;
  /** Shown under the choice: a description, an auth method's _meta. */
  detail?: string;
}

/** Known values for a field of a method's params, from what the agent said. */
export function suggestionsFor(
  method: string,
  path: Path,
  params: unknown,
  facts: AgentFacts,
  roots: readonly string[],
): Suggestion[] | undefined {
  if (path.length !== 1) return undefined;
  const key = path[0];
  const session = currentSession(facts);
  switch (key) {
    case "sessionId":
      return facts.sessionIds.length
        ? [...facts.sessionIds]
            .reverse()
            .map((id) => ({ value: id, label: id === facts.sessionId ? `${id} (current)` : id }))
        : undefined;
    case "cwd":
      return roots.length ? roots.map((r) => ({ value: r, label: r })) : undefined;
    case "methodId": {
      const list = authMethods(facts);
      return list.length
        ? list.map((m) => ({
            value: m.id,
            label: m.name === m.id ? m.id : `${m.name} (${m.id})`,
            detail:
              [m.description, m._meta !== undefined ? `_meta ${JSON.stringify(m._meta)}` : undefined]
                .filter(Boolean)
                .join(" · ") || undefined,
          }))
        : undefined;
    }
    case "modeId":
      return session.availableModes?.length
        ? session.availableModes.map((m) => ({
            value: m.id,
            label: m.id === session.currentModeId ? `${m.name} (${m.id}, current)` : `${m.name} (${m.id})`,
            detail: m.description ?? undefined,
          }))
        : undefined;
    case "configId":
      return session.configOptions?.length
        ? session.configOptions.map((o) => ({
            value: o.id,
            label: `${o.name} (${o.id})`,
            detail: o.description ?? undefined,
          }))
        : undefined;
    case "value": {
      if (method !== AGENT_METHODS.session_set_config_option || !isObject(params)) return undefined;
      const option = session.configOptions?.find((o) => o.id === params.configId);
      const values = configValues(option);
      return values.length ? values.map((o) => ({ value: o.value, label: `${o.name} (${o.value})` })) : undefined;
    }
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------
// Warnings beyond the schema

export interface ComposeWarning {
  /** Same format as schema issues (`params.prompt[1]`), when it is about one field. */
  path?: string;
  message: string;
  /** Sending needs "send anyway" (the agent said it does not accept this). */
  blocking: boolean;
}

const PROMPT_CAPABILITY: Record<string, "image" | "audio" | "embeddedContext"> = {
  image: "image",
  audio: "audio",
  resource: "embeddedContext",
};

/** Content block types the agent accepts in prompts (text and resource_link always). */
export function acceptedContent(facts: AgentFacts): Record<string, boolean> | undefined {
  const caps = agentCapabilities(facts);
  if (!caps) return undefined;
  return {
    text: true,
    resource_link: true,
    image: caps.prompt.image,
    audio: caps.prompt.audio,
    resource: caps.prompt.embeddedContext,
  };
}

/** What a client capability switched on promises, and the policy that breaks the promise. */
type Policies = Readonly<Record<string, Policy>>;

function capabilityPolicyWarnings(params: Record<string, unknown>, policies: Policies | undefined): ComposeWarning[] {
  if (!policies) return [];
  const caps = isObject(params.clientCapabilities) ? params.clientCapabilities : {};
  const fs = isObject(caps.fs) ? caps.fs : {};
  const out: ComposeWarning[] = [];
  const check = (on: boolean, path: string, methods: string[]) => {
    const denied = methods.filter((m) => policies[m] === "deny");
    if (on && denied.length) {
      out.push({
        path,
        message: `advertised, but the policy for ${denied.join(", ")} is "deny": the agent will get errors`,
        blocking: false,
      });
    }
  };
  check(fs.readTextFile === true, "params.clientCapabilities.fs.readTextFile", [CLIENT_METHODS.fs_read_text_file]);
  check(fs.writeTextFile === true, "params.clientCapabilities.fs.writeTextFile", [CLIENT_METHODS.fs_write_text_file]);
  check(caps.terminal === true, "params.clientCapabilities.terminal", [
    CLIENT_METHODS.terminal_create,
    CLIENT_METHODS.terminal_output,
    CLIENT_METHODS.terminal_wait_for_exit,
    CLIENT_METHODS.terminal_kill,
    CLIENT_METHODS.terminal_release,
  ]);
  check(isObject(caps.elicitation), "params.clientCapabilities.elicitation", [CLIENT_METHODS.elicitation_create]);
  return out;
}

export function composeWarnings(
  method: string,
  params: unknown,
  facts: AgentFacts,
  policies?: Policies,
): ComposeWarning[] {
  const p = isObject(params) ? params : {};
  const out: ComposeWarning[] = [];
  const support = methodSupport(method, facts);
  if (support.state === "unsupported")
    out.push({ message: `The agent answered -32601 for ${method}: ${support.reason}`, blocking: false });
  else if (support.state === "not-advertised")
    out.push({ message: `The agent does not advertise ${method} (${support.reason})`, blocking: false });
  if (method === AGENT_METHODS.initialize) out.push(...capabilityPolicyWarnings(p, policies));
  if (method === AGENT_METHODS.session_prompt && Array.isArray(p.prompt)) {
    const accepted = acceptedContent(facts);
    p.prompt.forEach((block, i) => {
      const type = isObject(block) ? block.type : undefined;
      if (accepted && typeof type === "string" && accepted[type] === false) {
        out.push({
          path: `params.prompt[${i}]`,
          message: `${type} is not in the agent's promptCapabilities (${PROMPT_CAPABILITY[type]})`,
          blocking: true,
        });
      }
    });
  }
  if (Array.isArray(p.mcpServers)) {
    const caps = agentCapabilities(facts);
    p.mcpServers.forEach((server, i) => {
      const type = isObject(server) ? server.type : undefined;
      if (caps && (type === "http" || type === "sse") && !caps.mcp[type]) {
        out.push({
          path: `params.mcpServers[${i}]`,
          message: `the agent does not advertise mcpCapabilities.${type}`,
          blocking: true,
        });
      }
    });
  }
  return out;
}

/**
 * Why a union variant is discouraged at this place of a method's params: a
 * prompt content type or an MCP transport the agent did not advertise. The
 * form greys it out; it can still be chosen and sent anyway.
 */
export function variantNote(method: string, path: Path, tagValue: unknown, facts: AgentFacts): string | undefined {
  const [list, index] = path;
  if (path.length !== 2 || typeof index !== "number" || typeof tagValue !== "string") return undefined;
  if (list === "prompt" && method === AGENT_METHODS.session_prompt) {
    return acceptedContent(facts)?.[tagValue] === false
      ? `not in promptCapabilities (${PROMPT_CAPABILITY[tagValue]})`
      : undefined;
  }
  if (list === "mcpServers" && (tagValue === "http" || tagValue === "sse")) {
    const caps = agentCapabilities(facts);
    return caps && !caps.mcp[tagValue] ? `mcpCapabilities.${tagValue} not advertised` : undefined;
  }
  return undefined;
}

/** What the agent said that bears on a method, shown beside its form (content types, MCP transports, auth methods). */
export function capabilityNotes(method: string, facts: AgentFacts): string[] {
  const caps = agentCapabilities(facts);
  if (!caps) return [];
  const yesNo = (entries: [string, boolean][]) => entries.map(([k, v]) => `${k} ${v ? "✓" : "✗"}`).join(" · ");
  switch (method) {
    case AGENT_METHODS.session_prompt:
      return [
        `promptCapabilities: ${yesNo([
          ["image", caps.prompt.image],
          ["audio", caps.prompt.audio],
          ["embeddedContext", caps.prompt.embeddedContext],
        ])} (text and resource_link always)`,
      ];
    case AGENT_METHODS.session_new:
    case AGENT_METHODS.session_load:
    case AGENT_METHODS.session_resume:
    case AGENT_METHODS.session_fork:
      return [
        `mcpCapabilities: ${yesNo([
          ["http", caps.mcp.http],
          ["sse", caps.mcp.sse],
        ])} (stdio always)`,
      ];
    case AGENT_METHODS.authenticate:
      return authMethods(facts).map(
        (m) =>
          `${m.id}: ${m.name}${m.description ? ` (${m.description})` : ""}${m._meta !== undefined ? ` · _meta ${JSON.stringify(m._meta)}` : ""}`,
      );
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------
// Codex's app-server

/** The picker's groups that come first; the others follow in alphabetical order. */
const APP_SERVER_GROUP_ORDER = ["initialize", "thread", "turn", "config", "account"];

/** Where the picker lists an app-server method: its first path segment, the handshake apart, one-word v1 methods together. */
function appServerGroup(method: string): string {
  if (method === "initialize" || method === "initialized") return "initialize";
  const slash = method.indexOf("/");
  if (slash < 0) return "v1";
  const first = method.slice(0, slash);
  // configRequirements/read, config/value/write: one group for the configuration.
  return first.startsWith("config") ? "config" : first;
}

const groupRank = (g: string) => {
  const i = APP_SERVER_GROUP_ORDER.indexOf(g);
  return i < 0 ? APP_SERVER_GROUP_ORDER.length : i;
};

/** The app-server's client requests and notifications, with their params definitions, by group. */
export function appServerComposeMethods(file: AppServerSchemaFile): MethodSpec[] {
  const spec =
    (notification: boolean) =>
    ([method, entry]: [string, { params?: string }]): MethodSpec => ({
      method,
      def: entry.params,
      notification,
      unstable: false,
      group: appServerGroup(method),
    });
  return [
    ...Object.entries(file.methods.clientRequests).map(spec(false)),
    ...Object.entries(file.methods.clientNotifications).map(spec(true)),
  ]
    .map((m, i) => ({ m, i }))
    .sort((a, b) => groupRank(a.m.group!) - groupRank(b.m.group!) || a.m.group!.localeCompare(b.m.group!) || a.i - b.i)
    .map(({ m }) => m);
}

/** Params naming the running (or last) turn. */
const TURN_FIELDS = ["turnId", "expectedTurnId"];

function appServerPrefill(
  method: string,
  node: FieldNode,
  state: LogFolds<AppServerConversation>,
  ctx: PrefillContext,
): unknown {
  if (method === "initialize") return appServerInitializeParams();
  const base = initialValue(node);
  const v: Record<string, unknown> = isObject(base) ? { ...base } : {};
  const { threadId, turn } = state.conversation.current;
  if (threadId !== undefined && hasField(node, "threadId")) v.threadId = threadId;
  const turnId = turn?.threadId === threadId ? turn?.turnId : undefined;
  for (const f of TURN_FIELDS) if (turnId !== undefined && hasField(node, f)) v[f] = turnId;
  // A thread opened from the form opens where Connect opens one.
  if (method === "thread/start" && hasField(node, "cwd")) v.cwd = ctx.cwd;
  if (hasField(node, "input") && Array.isArray(v.input) && v.input.length === 0)
    v.input = [{ type: "text", text: "", text_elements: [] }];
  return base === undefined && Object.keys(v).length === 0 ? base : v;
}

function appServerSuggestions(
  method: string,
  path: Path,
  state: LogFolds<AppServerConversation>,
  roots: readonly string[],
): Suggestion[] | undefined {
  if (path.length !== 1) return undefined;
  const key = path[0];
  const { threadId, threadIds, turn, cursors, providers } = state.conversation.current;
  // The next page of the listing this form asks for (thread/turns/list, thread/items/list, thread/list...).
  const cursor = Object.hasOwn(cursors, method) ? cursors[method] : undefined;
  if (key === "cursor" && cursor !== undefined)
    return [{ value: cursor, label: "next page (the last answer's nextCursor)" }];
  if (key === "providerId" && providers.length) return providers.map((id) => ({ value: id, label: id }));
  if (key === "threadId" && threadIds.length)
    return [...threadIds].reverse().map((id) => ({ value: id, label: id === threadId ? `${id} (current)` : id }));
  if (typeof key === "string" && TURN_FIELDS.includes(key) && turn?.turnId)
    return [
      { value: turn.turnId, label: `${turn.turnId} (${turn.ended ? `last, ${turn.status ?? "ended"}` : "running"})` },
    ];
  if (key === "cwd" && roots.length) return roots.map((r) => ({ value: r, label: r }));
  return undefined;
}

// ---------------------------------------------------------------------------
// Per protocol

/** How a protocol's forms are judged, prefilled and annotated. */
/** `C`: the protocol's conversation (its spec's), which the forms read beside the facts. */
export interface ComposeRules<C = unknown> {
  support(method: string, facts: AgentFacts): Support;
  prefill(method: string, node: FieldNode, state: LogFolds<C>, ctx: PrefillContext): unknown;
  suggest(
    method: string,
    path: Path,
    params: unknown,
    state: LogFolds<C>,
    roots: readonly string[],
  ): Suggestion[] | undefined;
  warnings(method: string, params: unknown, facts: AgentFacts, policies?: Policies): ComposeWarning[];
  variantNote(method: string, path: Path, tagValue: unknown, facts: AgentFacts): string | undefined;
  notes(method: string, facts: AgentFacts): string[];
}

/** ACP's compose rules (its spec's, lib/features/protocols/acp/spec.ts). */
export const ACP_COMPOSE_RULES: ComposeRules = {
  support: methodSupport,
  prefill: (method, node, state, ctx) => prefillParams(method, node, state.facts, ctx),
  suggest: (method, path, params, state, roots) => suggestionsFor(method, path, params, state.facts, roots),
  warnings: composeWarnings,
  variantNote,
  notes: capabilityNotes,
};

/** Codex advertises no capabilities: every method of its schema may be sent, and it says what it refuses. */
export const APP_SERVER_COMPOSE_RULES: ComposeRules<AppServerConversation> = {
  support: () => ({ state: "baseline", reason: "in the app-server schema of the pinned Codex" }),
  prefill: appServerPrefill,
  suggest: (method, path, _params, state, roots) => appServerSuggestions(method, path, state, roots),
  warnings: () => [],
  variantNote: () => undefined,
  notes: () => [],
};
