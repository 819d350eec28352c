/**
 * The agent's reply as plain text for a terminal (`acp-playground record`): message chunks
 * joined, with a blank line where one message ends and the next begins. A message ends
 * where the session view starts a new one (session-view/messages.ts): another kind of
 * update came between (a tool call, a thought, a plan), or the message id changed (ACP
 * `messageId`, the app-server's `itemId`). A tool call shows as one line of its own, once, where it
 * is first seen: Gemini CLI announces a call that asks permission only in the request's `toolCall`,
 * then updates it (no `tool_call` update).
 */
import type { Frame } from "../protocol/frame";
import { isObject, str } from "../protocol/json";
import { APP_SERVER_NOTIFICATIONS } from "../protocol/app-server-methods";
import { CLIENT_METHODS } from "../protocol/methods";

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export class MessageText {
  /** The message being printed: its id, if it has one; undefined between messages. */
  #open: { id?: string } | undefined;
  #text = "";
  /** The tool calls named so far, by id. */
  readonly #tools = new Set<string>();

  /** All the text given out so far. */
  get text(): string {
    return this.#text;
  }

  /** The text a frame adds, boundaries included, or "" when it adds none. */
  push(f: Pick<Frame, "method" | "message">): string {
    const params = isObject(f.message) && isObject(f.message.params) ? f.message.params : undefined;
    if (!params) return "";
    if (f.method === APP_SERVER_NOTIFICATIONS.agent_message_delta) {
      return typeof params.delta === "string" ? this.#chunk(params.delta, str(params.itemId)) : "";
    }
    if (f.method === CLIENT_METHODS.session_request_permission && isObject(params.toolCall))
      return this.#tool(params.toolCall);
    if (f.method !== CLIENT_METHODS.session_update || !isObject(params.update)) return "";
    const u = params.update;
    if (u.sessionUpdate === "agent_message_chunk") {
      const c = u.content;
      return isObject(c) && c.type === "text" && typeof c.text === "string"
        ? this.#chunk(c.text, str(u.messageId))
        : "";
    }
    // The prompt echoed back or usage figures: no boundary in what the agent says.
    if (u.sessionUpdate === "user_message_chunk" || u.sessionUpdate === "usage_update") return "";
    this.#open = undefined;
    if (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") return this.#tool(u);
    return "";
  }

  /** A tool call's line, the first time it comes with a title. */
  #tool(call: Record<string, unknown>): string {
    const id = str(call.toolCallId);
    const title = typeof call.title === "string" ? call.title.trim() : "";
    if (!title || (id !== undefined && this.#tools.has(id))) return "";
    if (id !== undefined) this.#tools.add(id);
    this.#open = undefined;
    return this.#emit(`${this.#paragraph()}[tool] ${title.replace(/\s+/g, " ")}\n`);
  }

  #chunk(text: string, id: string | undefined): string {
    const open = this.#open;
    const continues = open !== undefined && (id === undefined || open.id === undefined || id === open.id);
    this.#open = { id: id ?? open?.id };
    return this.#emit(continues ? text : `${this.#paragraph()}${text}`);
  }

  /** What makes the text so far end with a blank line. */
  #paragraph(): string {
    if (this.#text === "" || this.#text.endsWith("\n\n")) return "";
    return this.#text.endsWith("\n") ? "\n" : "\n\n";
  }

  /** The agent's text is hostile: a terminal's control sequences are shown, never sent (newlines and tabs kept). */
  #emit(s: string): string {
    const shown = s.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    this.#text += shown;
    return shown;
  }
}
