/**
 * The offline model's mind: a few prompts it understands, each turned into a
 * tool call the agent carries out (so the agent really asks for permission,
 * writes, reads and runs), and a reply once the tool's result comes back.
 * Anything else gets a short help text. Pure: the model APIs (gemini-api.ts)
 * turn a reply into their own wire shape.
 */

/** What the model asks the agent to do; each API names the agent's tool for it. */
export type ScriptedAction =
  | { kind: "write"; path: string; content: string }
  | { kind: "read"; path: string }
  | { kind: "shell"; command: string; description: string };

export interface ScriptedReply {
  /** Streamed as the model's thinking, before the text: a bold subject line, then the thought (as Gemini's are). */
  thought?: string;
  text: string;
  action?: ScriptedAction;
}

/** What the agent reported back for an action: its output, or why it did not run. */
export interface ActionResult {
  output?: string;
  error?: string;
}

export const OFFLINE_EXAMPLES = ["write hello.txt saying hi", "read README.md", "run ls -la"] as const;

const HELP = [
  "I am the **offline model**: a scripted stand-in for a language model, running on this machine.",
  "The agent you are talking to is real; only its model is scripted, so nothing leaves this machine and no account is needed.",
  "",
  "Try one of these:",
  "",
  `- \`${OFFLINE_EXAMPLES[0]}\`: the agent asks for permission, then writes the file in the workspace`,
  `- \`${OFFLINE_EXAMPLES[1]}\`: the agent reads a file and I show its start`,
  `- \`${OFFLINE_EXAMPLES[2]}\`: the agent runs a terminal command (commands that change something ask first)`,
  "",
  "Every message of the conversation is recorded in its transcript, frame by frame.",
].join("\n");

const PATH = String.raw`[\w.~/-]+`;
const POLITE = String.raw`^(?:please\s+)?(?:can you\s+)?`;
const WRITE = new RegExp(
  String.raw`${POLITE}(?:write|create|make)\s+(?:a\s+)?(?:new\s+)?(?:file\s+)?(?:called\s+|named\s+)?[\x60"']?(${PATH})[\x60"']?(?:\s+(?:saying|with|containing|that says)\s+([\s\S]+))?$`,
  "i",
);
const READ = new RegExp(
  String.raw`${POLITE}(?:read|show|cat|open|display)\s+(?:me\s+)?(?:the\s+)?(?:file\s+)?[\x60"']?(${PATH})[\x60"']?\s*$`,
  "i",
);
const RUN = /^(?:please\s+)?(?:can you\s+)?(?:run|execute|exec)\s+(?:the\s+)?(?:command\s+)?([\s\S]+)$/i;

/** Strips one pair of matching quotes or backticks around a whole value. */
function unquote(value: string): string {
  const v = value.trim().replace(/[.!]$/, "");
  const m = /^([`"'])([\s\S]*)\1$/.exec(v);
  return m ? m[2]! : v;
}

/** The model's answer to a prompt the user typed. */
export function replyToPrompt(prompt: string): ScriptedReply {
  const text = prompt.trim();
  const write = WRITE.exec(text);
  if (write) {
    const path = write[1]!;
    const content = `${write[2] === undefined ? "Hello from the offline model." : unquote(write[2])}\n`;
    return {
      thought: `**Planning the write**\n\nThe user wants ${path} written. I will call the write tool; the agent asks the user first.`,
      text: `I will write \`${path}\`.`,
      action: { kind: "write", path, content },
    };
  }
  const read = READ.exec(text);
  if (read) {
    const path = read[1]!;
    return {
      thought: `**Planning the read**\n\nThe user wants to see ${path}. I will call the read tool.`,
      text: `Reading \`${path}\`.`,
      action: { kind: "read", path },
    };
  }
  const run = RUN.exec(text);
  if (run) {
    const command = unquote(run[1]!);
    return {
      thought: `**Planning the command**\n\nThe user wants \`${command}\` run. I will call the shell tool.`,
      text: `Running \`${command}\`.`,
      action: { kind: "shell", command, description: `Run ${command}, as the user asked` },
    };
  }
  return {
    thought: "**Answering**\n\nThis is not one of the prompts I know: I will say what I can do.",
    text: HELP,
  };
}

/** A fenced code block that no run of backticks in `body` can close early. */
function fence(body: string): string {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = "`".repeat(longest + 1);
  return `${marks}\n${body.replace(/\n$/, "")}\n${marks}`;
}

const SHOWN_LINES = 20;

/** The first lines of a text, and how many more there are. */
function head(text: string): string {
  const lines = text.replace(/\n$/, "").split("\n");
  if (lines.length <= SHOWN_LINES) return fence(text);
  return `${fence(lines.slice(0, SHOWN_LINES).join("\n"))}\n\n(${lines.length - SHOWN_LINES} more lines)`;
}

/**
 * What a command printed, out of the agent's report: Gemini CLI wraps it in `<untrusted_context>`
 * with its process group, Qwen Code lists `Command:`, `Directory:`, `Output:`, `Error:`, `Exit
 * Code:`...; the output is what matters.
 */
function shellOutput(output: string): string {
  const inner = /<untrusted_context>\n?([\s\S]*?)\n?<\/untrusted_context>/.exec(output)?.[1] ?? output;
  const field =
    /(?:^|\n)Output: ?([\s\S]*?)(?=\n(?:Error|Exit Code|Signal|Background PIDs|Process Group PGID):|$)/.exec(inner);
  if (field) return field[1]!.trim();
  return inner
    .split("\n")
    .filter((l) => !/^(Process Group PGID|Background PIDs):/.test(l))
    .join("\n")
    .trim();
}

/**
 * What a read tool read: Claude Code numbers its lines (`     1→text`, as `cat -n`) and appends a
 * `<system-reminder>` for the model; the file is what matters.
 */
function readOutput(output: string): string {
  const text = output.replace(/\n*<system-reminder>[\s\S]*?<\/system-reminder>\n*/g, "\n");
  const lines = text.replace(/\n+$/, "").split("\n");
  const numbered = /^\s*\d+→/;
  if (!lines.every((l) => numbered.test(l))) return text;
  return `${lines
    .map((l) => l.replace(numbered, ""))
    .join("\n")
    .replace(/\n+$/, "")}\n`;
}

/** The model's answer once the agent reports what came of an action. */
export function replyToResult(action: ScriptedAction, result: ActionResult): ScriptedReply {
  if (result.error !== undefined) {
    return {
      text: `That did not happen: ${result.error.trim()}\n\nNothing else was changed. Ask again to try once more.`,
    };
  }
  const output = result.output ?? "";
  switch (action.kind) {
    case "write":
      return {
        // Read in a terminal (acp-playground record) as well as the page: no "above", no cards.
        text: `Wrote \`${action.path}\` in the workspace. The agent asks for permission before it writes (\`session/request_permission\`) unless its mode allows edits.`,
      };
    case "read":
      return { text: `\`${action.path}\` says:\n\n${head(readOutput(output))}` };
    case "shell": {
      const shown = shellOutput(output);
      if (!shown || shown === "(empty)") return { text: `\`${action.command}\` ran and printed nothing.` };
      return { text: `\`${action.command}\` printed:\n\n${head(shown)}` };
    }
  }
}

/** Splits text into the pieces a model streams: a few words each, whitespace kept. */
export function streamPieces(text: string, words = 4): string[] {
  const tokens = text.match(/\S+\s*|\s+/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < tokens.length; i += words) pieces.push(tokens.slice(i, i + words).join(""));
  return pieces.length ? pieces : [""];
}
