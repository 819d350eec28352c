"use client";
/**
 * /watch/TOKEN: a running session watched live through a watch link. The same
 * views as the playground's tab (Session, Frames, Waterfall, Insights), fed by
 * a read-only store: its waiting cards show what the agent asks, and only the
 * owner can answer. The relay refuses whatever a watcher sends; this page
 * simply offers nothing to send.
 */
import { useEffect, useState } from "react";
import { SharedPageHeader } from "../PageHeader";
import { SessionStore } from "../state/session-store";
import type { Tab } from "../state/tabs-store";
import { TabContext, useSession } from "../state/use-session";
import { StderrPane } from "../StderrPane";
import { ViewPane } from "../ViewPane";

export function WatchPage({ token }: { token: string }) {
  const [tab, setTab] = useState<Tab>();
  useEffect(() => {
    const store = new SessionStore({ token: undefined, clientIdKey: "", watch: token });
    store.connect();
    setTab({ id: -1, store, ui: new Map() });
    return () => store.dispose();
  }, [token]);
  return (
    <div className="flex h-dvh flex-col">
      {/* Live or ended is said once, in the status line below: the header stays true after the link ends. */}
      <SharedPageHeader subtitle="Watch link · read-only" />
      {tab ? (
        <TabContext.Provider value={tab}>
          <WatchStatus />
          <div className="flex min-h-0 flex-1">
            <main className="flex min-w-0 flex-1 flex-col">
              <ViewPane />
            </main>
            <aside className="flex w-80 shrink-0 flex-col border-l border-zinc-800">
              <StderrPane />
            </aside>
          </div>
        </TabContext.Provider>
      ) : null}
    </div>
  );
}

/** Whether the stream is live, away, or ended (and why), and what waits for the owner. */
function WatchStatus() {
  const connection = useSession((s) => s.connection);
  const ended = useSession((s) => s.watchEnded);
  const paused = useSession((s) => s.watchPaused);
  const agent = useSession((s) => s.agent);
  const waiting = useSession((s) => s.pending);
  const text = ended
    ? ended
    : paused && connection === "connected"
      ? `The stream is ${paused}`
      : connection === "connected"
        ? agent.state === "running"
          ? `Live: ${agent.agent.profile}. Only the session's owner can act in it.`
          : "Live. Only the session's owner can act in it."
        : connection === "disconnected"
          ? "The connection to the playground dropped: reconnecting…"
          : "Connecting…";
  return (
    <div
      data-testid="watch-status"
      data-state={ended ? "ended" : paused && connection === "connected" ? "paused" : connection}
      role="status"
      className={`border-b px-3 py-1.5 text-xs ${
        ended || paused
          ? "border-amber-900 bg-amber-950/60 text-amber-200"
          : "border-zinc-800 bg-zinc-900/40 text-zinc-300"
      }`}
    >
      {text}
      {!ended && waiting.length > 0 ? (
        <span data-testid="watch-waiting" className="ml-3 text-sky-300">
          Waiting for the owner: {waiting.map((f) => f.method).join(", ")}
        </span>
      ) : null}
    </div>
  );
}
