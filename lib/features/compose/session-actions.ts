/**
 * The Sessions panel's actions on a listed session: which the agent
 * advertises (each shown only then) and the request each sends. resume,
 * load and fork reopen it in its own cwd; rename is `session/set_title`.
 */
import type { AgentCapabilitiesView } from "../../folds/agent-facts";
import type { ListedSession } from "../../folds/session-list";
import { AGENT_METHODS } from "../../protocol/methods";

export type SessionAction = "resume" | "load" | "fork" | "rename" | "close" | "delete" | "archive" | "unarchive";

export const ACTION_METHOD: Record<SessionAction, string> = {
  resume: AGENT_METHODS.session_resume,
  load: AGENT_METHODS.session_load,
  fork: AGENT_METHODS.session_fork,
  rename: AGENT_METHODS.session_set_title,
  close: AGENT_METHODS.session_close,
  delete: AGENT_METHODS.session_delete,
  archive: AGENT_METHODS.session_archive,
  unarchive: AGENT_METHODS.session_unarchive,
};

/** Titles longer than this are refused before sending. */
export const MAX_TITLE = 200;

/** Whether the agent advertises listing (the panel itself). */
export const canList = (caps: AgentCapabilitiesView | undefined) => caps?.session.includes("list") === true;

/** The actions shown for a session, in the panel's order; each only when advertised. */
export function sessionActions(caps: AgentCapabilitiesView | undefined, s: ListedSession): SessionAction[] {
  if (!caps) return [];
  const has = (k: string) => caps.session.includes(k);
  const out: SessionAction[] = [];
  if (has("resume")) out.push("resume");
  // v2 folded session/load into resume.
  if (caps.loadSession && caps.protocolVersion < 2) out.push("load");
  if (has("fork")) out.push("fork");
  if (has("title")) out.push("rename");
  if (has("close")) out.push("close");
  if (has("archive")) out.push(s.archived ? "unarchive" : "archive");
  if (has("delete")) out.push("delete");
  return out;
}

/** The request of an action, or why it cannot be sent (a rename's title). */
export function actionRequest(
  action: SessionAction,
  s: ListedSession,
  title?: string,
): { method: string; params: Record<string, unknown> } | { error: string } {
  const method = ACTION_METHOD[action];
  const sessionId = s.sessionId;
  switch (action) {
    case "resume":
    case "fork":
      return { method, params: { sessionId, cwd: s.cwd, mcpServers: [] } };
    case "load":
      return { method, params: { sessionId, cwd: s.cwd, mcpServers: [] } };
    case "rename": {
      const t = (title ?? "").trim();
      if (!t) return { error: "a title cannot be empty" };
      if (t.length > MAX_TITLE) return { error: `a title has at most ${MAX_TITLE} characters` };
      return { method, params: { sessionId, title: t } };
    }
    default:
      return { method, params: { sessionId } };
  }
}

/** An agent's updatedAt as shown: a local date and time when it is a date, else the text as sent. */
export function formatUpdated(updatedAt: string | undefined, now = Date.now()): string | undefined {
  if (!updatedAt) return undefined;
  const t = Date.parse(updatedAt);
  if (!Number.isFinite(t)) return updatedAt;
  const ago = Math.round((now - t) / 1000);
  const rel =
    ago < 0
      ? "in the future"
      : ago < 60
        ? "just now"
        : ago < 3600
          ? `${Math.floor(ago / 60)} min ago`
          : ago < 86_400
            ? `${Math.floor(ago / 3600)} h ago`
            : `${Math.floor(ago / 86_400)} d ago`;
  return `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC · ${rel}`;
}
