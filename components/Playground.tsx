"use client";
/** The whole page: header, tab bar, and the active tab (controls left, views right). */
import { useEffect } from "react";
import { AgentControls } from "./AgentControls";
import { ColumnTabs, COLUMN_TABS, type ColumnTab } from "./compose/ColumnTabs";
import { ComposePanel } from "./compose/ComposePanel";
import { ConnectPanel } from "./compose/ConnectPanel";
import { SentHistory } from "./compose/SentHistory";
import { usePersistedTabState } from "./compose/use-persisted-tab-state";
import { Composer } from "./Composer";
import { ConnectionBadge } from "./ConnectionBadge";
import { NavLinks } from "./NavLinks";
import { PendingRequests } from "./PendingRequests";
import { StderrPane } from "./StderrPane";
import { TabBar } from "./TabBar";
import { TappedWorkspace } from "./TapPanel";
import { getTabsStore } from "./state/tabs-store";
import { TokenMessage } from "./TokenMessage";
import { TabContext, useSession, useTabState, useTabs } from "./state/use-session";
import { useTappedId } from "./state/use-taps";
import { ViewPane } from "./ViewPane";

export function Playground() {
  const { ready, tabs, activeId } = useTabs();

  useEffect(() => getTabsStore().init(), []);

  const active = tabs.find((t) => t.id === activeId) ?? tabs[0];

  return (
    <div className="flex h-dvh flex-col">
      <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-800 bg-zinc-900/70 px-3">
        <h1 className="text-sm font-semibold tracking-tight text-zinc-100">ACP Playground</h1>
        <span className="text-xs text-zinc-400">Agent Client Protocol · raw frames</span>
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
  const tapId = useTappedId();
  // The draft lives here because the composer, the forms, the history and the pending list fill it.
  const [draft, setDraft] = useTabState("draft", "");
  const [column, setColumn] = usePersistedTabState<ColumnTab>("column", "prompt", COLUMN_TABS);
  /** Whatever drafts a frame shows it in the raw editor. */
  const toRaw = (text: string) => {
    setDraft(text);
    setColumn("raw");
  };

  if (connection === "no-token" || connection === "unauthorized") {
    return <TokenMessage refused={connection === "unauthorized"} />;
  }
  if (tapId !== undefined) return <TappedWorkspace tapId={tapId} />;
  return (
    <>
      <TabBar />
      <div className="flex min-h-0 flex-1" data-testid="tab-panel">
        <aside className="flex w-[28rem] shrink-0 flex-col border-r border-zinc-800">
          <div className="min-h-0 flex-1 overflow-y-auto">
            <AgentControls onConnect={() => setColumn("prompt")} onStart={() => setColumn("raw")} />
            <ColumnTabs active={column} onChange={setColumn} />
            <div className="border-b border-zinc-800" role="tabpanel" data-testid={`column-panel-${column}`}>
              {column === "prompt" ? <ConnectPanel /> : null}
              {column === "compose" ? <ComposePanel onToRaw={toRaw} /> : null}
              {column === "raw" ? (
                <>
                  <Composer draft={draft} onDraftChange={setDraft} />
                  <SentHistory onEdit={setDraft} />
                </>
              ) : null}
            </div>
            <PendingRequests onPick={toRaw} />
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
