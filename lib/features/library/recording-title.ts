/**
 * A recording's title: its first prompt, as the playground's tabs name a session. Read from the
 * turn-starting request of either protocol: ACP's `session/prompt` (`params.prompt`) or Codex's
 * `turn/start` (`params.input`), both lists of content blocks whose text blocks are joined.
 */
import { isObject } from "../../protocol/json";

const MAX = 80;

export function promptTitle(message: unknown): string | undefined {
  const params = isObject(message) && isObject(message.params) ? message.params : undefined;
  const blocks = params && (Array.isArray(params.prompt) ? params.prompt : params.input);
  if (!Array.isArray(blocks)) return undefined;
  const text = blocks
    .map((b) => (isObject(b) && b.type === "text" && typeof b.text === "string" ? b.text : ""))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  if (!text) return undefined;
  return text.length > MAX ? `${text.slice(0, MAX - 1).trimEnd()}…` : text;
}
