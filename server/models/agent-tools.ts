/**
 * The scripted model's actions (scripted-model.ts) as each agent's own tools,
 * and back: an API picks, among the tools a request offers, the one its agent
 * names for the action (Gemini CLI and its fork Qwen Code: write_file,
 * read_file, run_shell_command; Claude Code: Write, Read, Bash), and reads the
 * call the agent reports a result for back into the action.
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
}

const writeInput = (a: ScriptedAction, file: string) => ({
  file_path: file,
  content: a.kind === "write" ? a.content : "",
});
const shellInput = (a: ScriptedAction) =>
  a.kind === "shell" ? { command: a.command, description: a.description } : {};

/** First the Gemini family's, the default when a request names no tools (Gemini's API declares them apart). */
const AGENT_TOOLS: AgentTool[] = [
  { kind: "write", name: "write_file", input: writeInput },
  { kind: "read", name: "read_file", input: (_, file) => ({ file_path: file }) },
  { kind: "shell", name: "run_shell_command", input: shellInput },
  { kind: "write", name: "Write", input: writeInput },
  { kind: "read", name: "Read", input: (_, file) => ({ file_path: file }) },
  { kind: "shell", name: "Bash", input: shellInput },
];

/**
 * The working directory an agent states in its prompt (Qwen Code and Gemini CLI: "I'm currently
 * working in the directory: /w", Claude Code: "Working directory: /w"); agents such as Qwen
 * Code refuse a relative path, so the model makes its paths absolute against it.
 */
export function workingDirectory(texts: string[]): string | undefined {
  const pattern = /(?:working in the directory|working directory)\s*:?\s*(\/[^\s`'"]*)/i;
  for (const text of texts) {
    const dir = pattern.exec(text)?.[1]?.replace(/[.,;:]$/, "");
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
  const kind = AGENT_TOOLS.find((t) => t.name === name)?.kind;
  const args = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const arg = (key: string) => (typeof args[key] === "string" ? args[key] : "");
  const shown = (file: string) => {
    const relative = cwd && path.isAbsolute(file) ? path.relative(cwd, file) : file;
    return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
  };
  switch (kind) {
    case "write":
      return { kind, path: shown(arg("file_path")), content: arg("content") };
    case "read":
      return { kind, path: shown(arg("file_path")) };
    case "shell":
      return { kind, command: arg("command"), description: arg("description") };
    default:
      return undefined;
  }
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
const PIECE_DELAY_MS = 30;

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
