/**
 * Which fields of which client requests name a place on disk the agent will work in or act on:
 * the decision behind the working-directory rule (server/workspace.ts checks the paths). Made
 * on parsed messages, never on text: a method or key spelled with escapes (`session\/new`,
 * `c\u0077d`), a batch, a key given twice (every copy: lib/protocol/json-readings.ts) all count.
 */
import { AGENT_METHODS } from "../../protocol/methods";
import { APP_SERVER_CLIENT } from "../../protocol/app-server-methods";
import { Alternatives } from "../../protocol/json-readings";

/** A dotted path into a message; `*` is each element of an array. A field ending on a list names each entry. */
type Field = string;

/** ACP's session requests (v1 and the v2 draft), and the roots Claude's adapter also takes from `_meta`. */
const SESSION: Field[] = [
  "params.cwd",
  "params.additionalDirectories",
  "params._meta.additionalRoots",
  "params._meta.claudeCode.options.additionalDirectories",
  "params._meta.claudeCode.options.cwd",
  // Passed to the Claude Code CLI as `--add-dir`.
  "params._meta.claudeCode.options.extraArgs.add-dir",
];

/** Codex app-server (lib/protocol/app-server-schema.json): thread and turn directories, and every request that reads, writes or runs at a path. */
const THREAD: Field[] = ["params.cwd", "params.config"];
/** resume and fork also load a thread's rollout file by `path`. */
const THREAD_FROM_DISK: Field[] = [...THREAD, "params.path"];
const SANDBOX: Field[] = ["params.sandboxPolicy.writableRoots"];
const INPUT: Field[] = ["params.input.*.path"];

export const DIRECTORY_FIELDS: Readonly<Record<string, readonly Field[]>> = {
  [AGENT_METHODS.session_new]: SESSION,
  [AGENT_METHODS.session_load]: SESSION,
  [AGENT_METHODS.session_resume]: SESSION,
  [AGENT_METHODS.session_fork]: SESSION,
  [AGENT_METHODS.session_list]: ["params.cwd"],
  [APP_SERVER_CLIENT.thread_start]: THREAD,
  [APP_SERVER_CLIENT.thread_resume]: THREAD_FROM_DISK,
  [APP_SERVER_CLIENT.thread_fork]: THREAD_FROM_DISK,
  [APP_SERVER_CLIENT.thread_list]: ["params.cwd"],
  [APP_SERVER_CLIENT.turn_start]: ["params.cwd", ...SANDBOX, ...INPUT],
  [APP_SERVER_CLIENT.turn_steer]: INPUT,
  "command/exec": ["params.cwd", ...SANDBOX],
  "config/read": ["params.cwd"],
  "permissionProfile/list": ["params.cwd"],
  "windowsSandbox/setupStart": ["params.cwd"],
  "skills/list": ["params.cwds"],
  "skills/extraRoots/set": ["params.extraRoots"],
  "skills/config/write": ["params.path"],
  "hooks/list": ["params.cwds"],
  "plugin/list": ["params.cwds"],
  "plugin/installed": ["params.cwds"],
  "plugin/read": ["params.marketplacePath"],
  "plugin/install": ["params.marketplacePath"],
  "plugin/share/save": ["params.pluginPath"],
  "fs/readFile": ["params.path"],
  "fs/writeFile": ["params.path"],
  "fs/createDirectory": ["params.path"],
  "fs/getMetadata": ["params.path"],
  "fs/readDirectory": ["params.path"],
  "fs/remove": ["params.path"],
  "fs/watch": ["params.path"],
  "fs/copy": ["params.sourcePath", "params.destinationPath"],
  "feedback/upload": ["params.extraLogFiles"],
  "feedback/save": ["params.extraLogFiles", "params.savePath"],
  "config/value/write": ["params.filePath"],
  "config/batchWrite": ["params.filePath"],
  "modelProvider/config/write": ["params.settings.credentialFile"],
  "externalAgentConfig/detect": ["params.cwds"],
  "externalAgentConfig/import": [
    "params.migrationItems.*.cwd",
    "params.migrationItems.*.details.sessions.*.cwd",
    "params.migrationItems.*.details.sessions.*.path",
  ],
  fuzzyFileSearch: ["params.roots"],
};

/** Keys of Codex's `config` overrides (nested or dotted: `sandbox_workspace_write.writable_roots`) that name directories. */
const CONFIG_DIRECTORY_KEYS = new Set(["cwd", "writable_roots"]);

export interface NamedDirectory {
  method: string;
  /** How a refusal names it: `cwd`, `additionalDirectories entry`, `input[].path`... */
  field: string;
  path: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every value at `segments` under `value`, each copy of a repeated key followed. */
function valuesAt(value: unknown, segments: string[], out: unknown[], k = 0): void {
  if (value instanceof Alternatives) {
    for (const v of value.values) valuesAt(v, segments, out, k);
    return;
  }
  if (k === segments.length) out.push(value);
  else if (segments[k] === "*") {
    if (Array.isArray(value)) for (const v of value) valuesAt(v, segments, out, k + 1);
  } else if (isRecord(value) && Object.hasOwn(value, segments[k]!)) valuesAt(value[segments[k]!], segments, out, k + 1);
}

/** The strings a field holds: itself, or each entry of a list (copies of repeated keys included). */
function pathsIn(value: unknown, field: string, method: string, found: NamedDirectory[]): void {
  if (value instanceof Alternatives) for (const v of value.values) pathsIn(v, field, method, found);
  else if (typeof value === "string") found.push({ method, field, path: value });
  else if (Array.isArray(value))
    for (const v of value)
      for (const one of v instanceof Alternatives ? v.values : [v])
        if (typeof one === "string") found.push({ method, field: `${field} entry`, path: one });
}

/** The directories named by Codex `config` overrides, at any depth (walked without recursion). */
function configDirectories(config: unknown, method: string, found: NamedDirectory[]): void {
  const todo: Array<[unknown, string]> = [[config, "config"]];
  while (todo.length) {
    const [value, at] = todo.pop()!;
    if (value instanceof Alternatives) for (const v of value.values) todo.push([v, at]);
    else if (isRecord(value))
      for (const [key, v] of Object.entries(value)) {
        const where = `${at}.${key}`;
        if (CONFIG_DIRECTORY_KEYS.has(key.split(".").at(-1)!)) pathsIn(v, where, method, found);
        todo.push([v, where]);
      }
    else if (Array.isArray(value)) for (const v of value) todo.push([v, at]);
  }
}

/** Requests that write Codex's config: each edit's `value` at `keyPath` (`sandbox_workspace_write.writable_roots`). */
const CONFIG_EDITS: Readonly<Record<string, string>> = {
  "config/value/write": "params",
  "config/batchWrite": "params.edits.*",
};

/** The directories a config edit writes, read as the `config` override `{ [keyPath]: value }` would be. */
function editedDirectories(message: unknown, method: string, found: NamedDirectory[]): void {
  const edits: unknown[] = [];
  valuesAt(message, CONFIG_EDITS[method]!.split("."), edits);
  for (const edit of edits) {
    const keyPaths: unknown[] = [];
    const values: unknown[] = [];
    valuesAt(edit, ["keyPath"], keyPaths);
    valuesAt(edit, ["value"], values);
    for (const keyPath of keyPaths)
      if (typeof keyPath === "string")
        for (const value of values) configDirectories({ [keyPath]: value }, method, found);
  }
}

/**
 * The places a message names (a batch: each of its messages), under every reading of its
 * repeated keys. A field that is not a string or a list of strings is left to the agent to refuse.
 */
export function namedDirectories(message: unknown): NamedDirectory[] {
  const found: NamedDirectory[] = [];
  const todo = [message];
  while (todo.length) {
    const m = todo.pop();
    if (Array.isArray(m)) {
      for (const one of m) todo.push(one);
      continue;
    }
    const methods: unknown[] = [];
    valuesAt(m, ["method"], methods);
    // A reader in C ends a string at a NUL: `session/new\u0000x` is its session/new.
    const names = methods.flatMap((v) => (typeof v === "string" ? [v, v.split("\0")[0]!] : []));
    for (const method of new Set(names)) {
      if (Object.hasOwn(CONFIG_EDITS, method)) editedDirectories(m, method, found);
      if (!Object.hasOwn(DIRECTORY_FIELDS, method)) continue;
      for (const field of DIRECTORY_FIELDS[method]!) {
        const values: unknown[] = [];
        valuesAt(m, field.split("."), values);
        const label = field.replace(/^params\./, "").replaceAll(".*", "[]");
        for (const v of values)
          if (label === "config") configDirectories(v, method, found);
          else pathsIn(v, label, method, found);
      }
    }
  }
  return found;
}
