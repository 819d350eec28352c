"use client";
/**
 * The "Sessions" tab, when the agent advertises listing: `session/list` page by
 * page (the listing is folded from the frames, lib/folds/session-list.ts), each
 * session with its title, cwd and updated time, and the actions the agent
 * advertises (lib/features/compose/session-actions.ts). Titles and the rest are the
 * agent's text, shown as text only.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { agentCapabilities, EMPTY_FACTS } from "@/lib/folds/agent-facts";
import type { ListedSession } from "@/lib/folds/session-list";
import { agentErrorText } from "@/lib/features/connect/handshake";
import {
  actionRequest,
  canList,
  formatUpdated,
  MAX_TITLE,
  sessionActions,
  type SessionAction,
} from "@/lib/features/compose/session-actions";
import { AGENT_METHODS } from "@/lib/protocol/methods";
import type { RpcOutcome } from "@/lib/protocol/jsonrpc";
import { MoreMenu } from "../MoreMenu";
import { useSession, useSessionStore } from "../state/use-session";
import { alert, button, input, warn } from "./ui";

const LABEL: Record<SessionAction, string> = {
  resume: "Resume",
  load: "Load",
  fork: "Fork",
  rename: "Rename",
  close: "Close",
  delete: "Delete",
  archive: "Archive",
  unarchive: "Unarchive",
};

const failure = (o: RpcOutcome) =>
  o.kind === "error" ? agentErrorText(o.error) : o.kind === "failed" ? o.message : undefined;

function useRequest() {
  const store = useSessionStore();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const run = async (key: string, method: string, params: unknown) => {
    setBusy(key);
    setError(undefined);
    const out = await store.request(method, params);
    setBusy(undefined);
    const why = failure(out);
    if (why) setError(`${method}: ${why}`);
    return why === undefined;
  };
  return { busy, error, setError, run };
}

/** The actions on one line (docs/design.md#density-and-typography): the frequent ones as buttons, the rare ones in "More". */
const FREQUENT: readonly SessionAction[] = ["resume", "load", "fork"];

function SessionActions({
  actions,
  busy,
  onAct,
}: {
  actions: SessionAction[];
  busy: string | undefined;
  onAct: (a: SessionAction) => void;
}) {
  const frequent = actions.filter((a) => FREQUENT.includes(a));
  const rare = actions.filter((a) => !FREQUENT.includes(a));
  /** A rare action under way shows on the menu's button. */
  const running = rare.find((a) => busy === a);
  const label = (a: SessionAction) => (busy === a ? `${LABEL[a]}…` : LABEL[a]);
  const title = (a: SessionAction) => (a === "rename" ? AGENT_METHODS.session_set_title : `session/${a}`);
  return (
    <div className="flex flex-nowrap items-center gap-1" data-testid="session-actions">
      {frequent.map((a) => (
        <button
          key={a}
          type="button"
          data-testid={`session-action-${a}`}
          className={button}
          disabled={busy !== undefined}
          title={title(a)}
          onClick={() => onAct(a)}
        >
          {label(a)}
        </button>
      ))}
      {rare.length ? (
        <MoreMenu
          testId="session-menu"
          label="More session actions"
          className={button}
          items={rare.map((a) => ({
            label: LABEL[a],
            testId: `session-action-${a}`,
            title: title(a),
            disabled: busy !== undefined,
            danger: a === "delete",
            onSelect: () => onAct(a),
          }))}
        >
          {running ? `${LABEL[running]}…` : "More ▾"}
        </MoreMenu>
      ) : null}
    </div>
  );
}

function SessionRow({ s, current, actions }: { s: ListedSession; current: boolean; actions: SessionAction[] }) {
  const { busy, error, setError, run } = useRequest();
  const [renaming, setRenaming] = useState<string>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const act = async (action: SessionAction, title?: string) => {
    const req = actionRequest(action, s, title);
    if ("error" in req) return setError(req.error);
    if (await run(action, req.method, req.params)) {
      if (action === "rename") setRenaming(undefined);
      setConfirmDelete(false);
    }
  };
  const updated = formatUpdated(s.updatedAt);
  return (
    <li
      data-testid="session-row"
      data-session-id={s.sessionId}
      className={`flex flex-col gap-1 rounded border px-2 py-1.5 ${current ? "border-sky-700 bg-sky-950/20" : "border-zinc-800 bg-zinc-900/50"}`}
    >
      <div className="flex items-baseline gap-2">
        <span
          data-testid="session-title"
          className={`min-w-0 flex-1 truncate text-xs ${s.title ? "text-zinc-100" : "italic text-zinc-500"}`}
          title={s.title}
        >
          {s.title || "(untitled)"}
        </span>
        {current ? <span className="text-[10px] text-sky-300">current</span> : null}
        {s.archived ? (
          <span data-testid="session-archived" className="text-[10px] text-amber-300">
            archived
          </span>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-x-2 text-[10px] text-zinc-500">
        <code className="truncate" title={s.sessionId}>
          {s.sessionId}
        </code>
        <span className="truncate" title={s.cwd}>
          {s.cwd}
        </span>
        {updated ? <span data-testid="session-updated">{updated}</span> : null}
      </div>
      {renaming !== undefined ? (
        <form
          className="flex gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            void act("rename", renaming);
          }}
        >
          <input
            data-testid="session-rename-input"
            aria-label="New title"
            className={input}
            value={renaming}
            maxLength={MAX_TITLE}
            onChange={(e) => setRenaming(e.target.value)}
            autoFocus
          />
          <button type="submit" className={button} data-testid="session-rename-save" disabled={busy !== undefined}>
            Save
          </button>
          <button type="button" className={button} onClick={() => setRenaming(undefined)}>
            Cancel
          </button>
        </form>
      ) : confirmDelete ? (
        <div className="flex items-center gap-1">
          <button
            type="button"
            data-testid="session-action-delete-confirm"
            className={`${button} border-red-800 text-red-300`}
            disabled={busy !== undefined}
            onClick={() => void act("delete")}
          >
            {busy === "delete" ? "Deleting…" : "Delete for good?"}
          </button>
          <button type="button" className={button} onClick={() => setConfirmDelete(false)}>
            Keep
          </button>
        </div>
      ) : actions.length ? (
        <SessionActions
          actions={actions}
          busy={busy}
          onAct={(a) =>
            a === "rename" ? setRenaming(s.title ?? "") : a === "delete" ? setConfirmDelete(true) : void act(a)
          }
        />
      ) : null}
      {error ? (
        <p data-testid="session-row-error" className={alert}>
          {error}
        </p>
      ) : null}
    </li>
  );
}

export function SessionsPanel() {
  // The initialize exchange keeps its identity until a new one: the capabilities are read from it once.
  const init = useSession((s) => s.facts.initialize);
  const caps = useMemo(() => agentCapabilities({ ...EMPTY_FACTS, initialize: init }), [init]);
  const listing = useSession((s) => s.facts.listing);
  const currentId = useSession((s) => s.facts.sessionId);
  const running = useSession((s) => s.agent.state === "running");
  const { busy, error, run } = useRequest();
  const listable = canList(caps);
  /** The initialize exchange the first page was asked for: a restarted agent is listed again. */
  const asked = useRef<unknown>(undefined);

  // The first page, once, when the panel opens on an agent that lists.
  useEffect(() => {
    if (!listable || !running || listing || asked.current === init) return;
    asked.current = init;
    void run("list", AGENT_METHODS.session_list, {});
  }, [listable, running, listing, run, init]);

  if (!running) return <p className="p-3 text-xs text-zinc-500">Start an agent (Connect) to list its sessions.</p>;
  if (!listable)
    return (
      <p className="p-3 text-xs text-zinc-500" data-testid="sessions-not-advertised">
        This agent does not advertise session listing (agentCapabilities.sessionCapabilities.list).
      </p>
    );
  const sessions = listing?.sessions ?? [];
  return (
    <section className="flex flex-col gap-2 p-3" aria-label="Sessions" data-testid="sessions-panel">
      <div className="flex items-center gap-2">
        <p className="text-[11px] text-zinc-500">
          {listing ? `${sessions.length} session${sessions.length === 1 ? "" : "s"}` : "session/list…"}
          {listing && listing.pages > 1 ? ` · ${listing.pages} pages` : ""}
        </p>
        <button
          type="button"
          className={`${button} ml-auto`}
          data-testid="sessions-refresh"
          disabled={busy !== undefined}
          onClick={() => void run("list", AGENT_METHODS.session_list, {})}
        >
          {busy === "list" ? "Listing…" : "Refresh"}
        </button>
      </div>
      {error ? <p className={alert}>{error}</p> : null}
      {listing?.badCursor ? <p className={warn}>No next page: {listing.badCursor}.</p> : null}
      {listing?.dropped ? (
        <p className={warn} data-testid="sessions-dropped">
          {listing.dropped} entr{listing.dropped === 1 ? "y" : "ies"} the agent sent were not sessions or over the
          limit, and are not shown.
        </p>
      ) : null}
      <ul className="flex flex-col gap-1.5" data-testid="sessions-list">
        {sessions.map((s) => (
          <SessionRow key={s.sessionId} s={s} current={s.sessionId === currentId} actions={sessionActions(caps, s)} />
        ))}
      </ul>
      {listing?.nextCursor ? (
        <button
          type="button"
          className={button}
          data-testid="sessions-more"
          disabled={busy !== undefined}
          onClick={() => void run("more", AGENT_METHODS.session_list, { cursor: listing.nextCursor })}
        >
          {busy === "more" ? "Loading…" : "Load more"}
        </button>
      ) : null}
    </section>
  );
}
