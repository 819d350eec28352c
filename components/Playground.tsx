"use client";
/** The whole page: header, tab bar, and the active tab (controls left, views right). */
import { useEffect } from "react";
import { AgentControls } from "./AgentControls";
import { Composer } from "./Composer";
import { ConnectionBadge } from "./ConnectionBadge";
import { NavLinks } from "./NavLinks";
import { PendingRequests } from "./PendingRequests";
import { StderrPane } from "./StderrPane";
import { TabBar } from "./TabBar";
import { getTabsStore } from "./tabs-store";
import { TokenMessage } from "./TokenMessage";
import { TabContext, useSession, useTabState, useTabs } from "./use-session";
import { ViewPane } from "./ViewPane";

export function Playground() {
  const { ready, tabs, activeId } = useTabs();

  useEffect(() => getTabsStore().init(), []);

  const active = tabs.find((t) => t.id === activeId) ?? tabs[0];

  return (
    <div className="flex h-dvh flex-col">
      <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-800 bg-zinc-900/70 px-3">
        <h1 className="text-sm font-semibold tracking-tight text-zinc-100">ACP Playground</h1>
        <span className="text-xs text-zinc-500">Agent Client Protocol · raw frames</span>
        <NavLinks />
        <div className="ml-auto">
          {active ? (
            <TabContext.Provider value={active}>
              <ConnectionBadge />
            </TabContext.Provider>
          ) : null}
        </div>
      </header>
      {ready && active ? (
        <TabContext.Provider value={active}>
          <Workspace key={active.id} />
        </TabContext.Provider>
      ) : null}
    </div>
  );
}

/** The active tab: tab bar, then its controls and views (remounted per tab). */
function Workspace() {
  const connection = useSession((s) => s.connection);
  // The draft lives here because both the composer and the pending list fill it.
  const [draft, setDraft] = useTabState("draft", "");

  if (connection === "no-token" || connection === "unauthorized") {
    return <TokenMessage refused={connection === "unauthorized"} />;
  }
  return (
    <>
      <TabBar />
      <div className="flex min-h-0 flex-1" data-testid="tab-panel">
        <aside className="flex w-[25rem] shrink-0 flex-col border-r border-zinc-800">
          <div className="min-h-0 flex-1 overflow-y-auto">
            <AgentControls />
            <Composer draft={draft} onDraftChange={setDraft} />
            <PendingRequests onPick={setDraft} />
          </div>
          <StderrPane />
        </aside>
        <main className="flex min-w-0 flex-1 flex-col">
          <ViewPane />
        </main>
      </div>
    </>
  );
}
