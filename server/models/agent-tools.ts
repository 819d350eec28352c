/**
 * The scripted model's actions (scripted-model.ts) as each agent's own tools,
 * and back: an API picks, among the tools a request offers, the one its agent
 * names for the action (Gemini CLI and its fork Qwen Code: write_file,
 * read_file, run_shell_command; Claude Code: Write, Read, Bash; Codex:
 * exec_command for all three), and reads the call the agent reports a result
 * for back into the action.
 */
import path from "node:path";
import type { ModelTurn } from "./http";
import { replyToPrompt, replyToResult, streamPieces, type ScriptedAction, type ScriptedReply } from "./scripted-model";

export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

interface AgentTool {
  kind: ScriptedAction["kind"];
  name: string;
  /** The call's arguments; `file` is the path as the agent wants it (absolute when the working directory is known). */
  input(action: ScriptedAction, file: string): Record<string, unknown>;
  /** The action a call of this tool carried out (its path as given), if it is one of this kind. */
  action(arg: (key: string) => string): ScriptedAction | undefined;
}

const writeInput = (a: ScriptedAction, file: string) => ({
  file_path: file,
  content: a.kind === "write" ? a.content : "",
});
const shellInput = (a: ScriptedAction) =>
  a.kind === "shell" ? { command: a.command, description: a.description } : {};
const writeAction = (arg: (key: string) => string): ScriptedAction => ({
  kind: "write",
  path: arg("file_path"),
  content: arg("content"),
});
const readAction = (arg: (key: string) => string): ScriptedAction => ({ kind: "read", path: arg("file_path") });
const shellAction = (arg: (key: string) => string): ScriptedAction => ({
  kind: "shell",
  command: arg("command"),
  description: arg("description"),
});

/** A word for a POSIX shell, whatever it holds. */
const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
const QUOTED = String.raw`'(?:[^']|'\\'')*'`;
const unquote = (word: string) => word.slice(1, -1).replace(/'\\''/g, "'");
/** How the model writes a file with Codex's one tool, exec_command (it offers no write tool to an unknown model). */
const CODEX_WRITE = new RegExp(`^printf '%s' (${QUOTED}) > (${QUOTED})$`);

/** First the Gemini family's, the default when a request names no tools (Gemini's API declares them apart). */
const AGENT_TOOLS: AgentTool[] = [
  { kind: "write", name: "write_file", input: writeInput, action: writeAction },
  { kind: "read", name: "read_file", input: (_, file) => ({ file_path: file }), action: readAction },
  { kind: "shell", name: "run_shell_command", input: shellInput, action: shellAction },
  { kind: "write", name: "Write", input: writeInput, action: writeAction },
  { kind: "read", name: "Read", input: (_, file) => ({ file_path: file }), action: readAction },
  { kind: "shell", name: "Bash", input: shellInput, action: shellAction },
  {
    // Codex asks before a command only when it wants more than its sandbox: a write is to show a permission.
    kind: "write",
    name: "exec_command",
    input: (a, file) => ({
      cmd: `printf '%s' ${quote(a.kind === "write" ? a.content : "")} > ${quote(file)}`,
      sandbox_permissions: "require_escalated",
      justification: `The user asked for ${file} to be written.`,
    }),
    action: (arg) => {
      const m = CODEX_WRITE.exec(arg("cmd"));
      return m ? { kind: "write", path: unquote(m[2]!), content: unquote(m[1]!) } : undefined;
    },
  },
  {
    kind: "read",
    name: "exec_command",
    input: (_, file) => ({ cmd: `cat ${quote(file)}` }),
    action: (arg) => {
      const m = new RegExp(`^cat (${QUOTED})$`).exec(arg("cmd"));
      return m ? { kind: "read", path: unquote(m[1]!) } : undefined;
    },
  },
  {
    kind: "shell",
    name: "exec_command",
    input: (a) => (a.kind === "shell" ? { cmd: a.command } : {}),
    action: (arg) => ({ kind: "shell", command: arg("cmd"), description: "" }),
  },
];

/**
 * The working directory an agent states in its prompt (Qwen Code and Gemini CLI: "I'm currently
 * working in the directory: /w", Claude Code: "Working directory: /w", Codex: "<cwd>/w</cwd>");
 * agents such as Qwen Code refuse a relative path, so the model makes its paths absolute against it.
 */
export function workingDirectory(texts: string[]): string | undefined {
  const pattern = /(?:working in the directory|working directory)\s*:?\s*(\/[^\s`'"<]*)|<cwd>(\/[^<]*)<\/cwd>/i;
  for (const text of texts) {
    const m = pattern.exec(text);
    const dir = (m?.[1] ?? m?.[2])?.replace(/[.,;:]$/, "");
    if (dir) return dir;
  }
  return undefined;
}

/** The call that carries out `action` with one of the `offered` tool names (the Gemini family's if none fits). */
export function toolCall(action: ScriptedAction, offered: string[], cwd?: string): ToolCall {
  const tools = AGENT_TOOLS.filter((t) => t.kind === action.kind);
  const tool = tools.find((t) => offered.includes(t.name)) ?? tools[0]!;
  const file = action.kind === "shell" ? "" : cwd ? path.resolve(cwd, action.path) : action.path;
  return { name: tool.name, input: tool.input(action, file) };
}

/** The action a call of the agent's carried out (its path as the user typed it when inside `cwd`), if it is one of ours. */
export function actionOfCall(name: string | undefined, input: unknown, cwd?: string): ScriptedAction | undefined {
  const args = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const arg = (key: string) => (typeof args[key] === "string" ? args[key] : "");
  const action = AGENT_TOOLS.filter((t) => t.name === name)
    .map((t) => t.action(arg))
    .find((a) => a !== undefined);
  if (!action || action.kind === "shell") return action;
  const relative = cwd && path.isAbsolute(action.path) ? path.relative(cwd, action.path) : action.path;
  const inside = relative && !relative.startsWith("..") && !path.isAbsolute(relative);
  return { ...action, path: inside ? relative : action.path };
}

/** The names of the tools a request body offers (`tools[].name`, or `tools[].function.name` in chat completions). */
export function offeredTools(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((t: { name?: unknown; function?: { name?: unknown } }) => {
    const name = t?.name ?? t?.function?.name;
    return typeof name === "string" ? [name] : [];
  });
}

/** What the scripted model reads of a request, whatever its API. */
export interface Conversation {
  /** The user's last typed text. */
  prompt: string;
  /** When the agent reports a tool's result (the request's last message): the call and what came of it. */
  result?: { name?: string; input: unknown; output?: string; error?: string };
  /** The tool names the request offers. */
  offered: string[];
  /** The texts that may state the agent's working directory (system prompt, user context). */
  context: string[];
}

/** Pauses between streamed pieces, as a model makes: the view shows the text arriving. */
export const PIECE_DELAY_MS = 30;

function modelTurn(reply: ScriptedReply, offered: string[], cwd: string | undefined): ModelTurn {
  return {
    thought: reply.thought,
    text: streamPieces(reply.text),
    tools: reply.action ? [toolCall(reply.action, offered, cwd)] : [],
    delayMs: PIECE_DELAY_MS,
  };
}

/**
 * The offline model's turn in the APIs that speak ModelTurn (chat completions, Messages,
 * Responses): after a tool ran, what came of it (never the prompt again, which would loop);
 * else the reply to the user's prompt.
 */
export function scriptedModelTurn(c: Conversation): ModelTurn {
  const cwd = workingDirectory(c.context);
  if (c.result) {
    const action = actionOfCall(c.result.name, c.result.input, cwd);
    const reply = action
      ? replyToResult(action, { output: c.result.output, error: c.result.error })
      : { text: `The \`${c.result.name ?? "tool"}\` call is done.` };
    return modelTurn(reply, c.offered, cwd);
  }
  return modelTurn(replyToPrompt(c.prompt), c.offered, cwd);
}
