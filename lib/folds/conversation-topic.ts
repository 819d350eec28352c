/**
 * What a tab is recognised by, per conversation fold: the newest conversation's title, else its
 * first prompt's text, on one line and clipped (each protocol's spec names its own as `topic`).
 */
import type { AppServerViewState } from "./codex-app-server/view";
import type { SessionViewState } from "./session-view";

export const TOPIC_MAX = 40;

const clip = (text: string): string => {
  const line = text.trim().replace(/\s+/g, " ");
  return line.length > TOPIC_MAX ? `${line.slice(0, TOPIC_MAX - 1)}…` : line;
};

/** ACP: the newest session's title, else its first prompt's text. */
export function sessionTopic(view: SessionViewState): string {
  const id = view.order.at(-1);
  const session = id !== undefined ? view.sessions[id] : undefined;
  if (!session) return "";
  const prompt = session.turns[0]?.prompt.find((b) => b.type === "text");
  return clip(session.info.title?.trim() || (prompt && "text" in prompt ? prompt.text : ""));
}

/** The app-server: the newest thread's first user message. */
export function threadTopic(view: AppServerViewState): string {
  const id = view.order.at(-1);
  const thread = id !== undefined ? view.threads[id] : undefined;
  for (const turn of thread?.turns ?? [])
    for (const item of turn.items) if (item.type === "userMessage" && "text" in item) return clip(item.text);
  return "";
}
