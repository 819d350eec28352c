/**
 * The prompt box's slash menu: the agent's commands (from its latest
 * `available_commands_update`) that match what is typed after "/".
 */
import { isObject } from "../protocol/json";
export interface SlashCommand {
  name: string;
  description?: string;
  /** A hint for the command's input, when the agent gives one. */
  hint?: string;
}

export function toSlashCommands(commands: readonly unknown[] | undefined): SlashCommand[] {
  return (commands ?? []).filter(isObject).flatMap((c) => {
    if (typeof c.name !== "string") return [];
    const hint = isObject(c.input) && typeof c.input.hint === "string" ? c.input.hint : undefined;
    return [
      {
        name: c.name,
        ...(typeof c.description === "string" ? { description: c.description } : {}),
        ...(hint ? { hint } : {}),
      },
    ];
  });
}

/**
 * The query when the text is a slash command being typed ("/mem" -> "mem"),
 * else undefined. Command names may contain spaces ("memory show"), so the
 * query runs to the end of the first line.
 */
export function slashQuery(text: string): string | undefined {
  if (!text.startsWith("/")) return undefined;
  const line = text.slice(1).split("\n")[0]!;
  return line;
}

/** Commands matching the query: prefix matches first, then substring matches. */
export function matchCommands(commands: readonly SlashCommand[], query: string): SlashCommand[] {
  const q = query.trimStart().toLowerCase();
  const prefix = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const inside = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...prefix, ...inside];
}

/** The text after picking a command: "/name " ready for its input. */
export const applyCommand = (command: SlashCommand): string => `/${command.name} `;
