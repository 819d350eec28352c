"use client";
/**
 * The whole page: header, tab bar, and the active tab (controls left, views
 * right). The left column, its stderr pane and the views are resizable panels
 * (sizes kept per browser); the left column collapses to give the views room.
 */
import { useEffect, useRef, useState } from "react";
import { Group, Panel, Separator, useDefaultLayout, usePanelRef } from "react-resizable-panels";
import { AgentControls } from "./AgentControls";
import { ColumnTabs, COLUMN_TABS, type ColumnTab } from "./compose/ColumnTabs";
import { ComposePanel } from "./compose/ComposePanel";
import { ConnectPanel } from "./compose/ConnectPanel";
import { SessionsPanel } from "./compose/SessionsPanel";
import { agentCapabilities } from "@/lib/folds/agent-facts";
import { canList } from "@/lib/features/compose/session-actions";
import { SentHistory } from "./compose/SentHistory";
import { usePersistedTabState } from "./compose/use-persisted-tab-state";
import { Composer } from "./Composer";
import { ConnectionBadge } from "./ConnectionBadge";
import { CopyLink } from "./CopyLink";
import { takePreselectedProfile } from "./page-storage";
import { NavLinks } from "./NavLinks";
import { PendingRequests } from "./PendingRequests";
import { StderrPane } from "./StderrPane";
import { TabBar } from "./TabBar";
import { TappedWorkspace } from "./TapPanel";
import { getTabsStore } from "./state/tabs-store";
import { TokenMessage } from "./TokenMessage";
import { TabContext, useSession, useTabState, useTabs } from "./state/use-session";
import { useTappedId } from "./state/use-taps";
import { useWaitingTitle } from "./use-waiting-title";
import { WatchLinkButton } from "./watch/WatchLinkButton";
import { PageShortcuts, useRequestShortcuts } from "./answer/shortcuts";
import { ViewPane } from "./ViewPane";

const separator =
  "bg-zinc-800 outline-none transition-colors hover:bg-sky-700 focus-visible:bg-sky-500 data-[separator=active]:bg-sky-500";

export function Playground() {
  const { ready, tabs, activeId } = useTabs();

  // "Replay as mock agent" from another page: taken here, once, so only the tab it opens gets it.
  useEffect(() => getTabsStore().init(takePreselectedProfile()), []);
  useWaitingTitle(tabs);

  const active = tabs.find((t) => t.id === activeId) ?? tabs[0];

  return (
    <div className="flex h-dvh flex-col">
      <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-800 bg-zinc-900/70 px-3">
        <h1 className="text-sm font-semibold tracking-tight text-zinc-100">ACP Playground</h1>
        <span className="text-xs text-zinc-400">Agent Client Protocol · raw frames</span>
        <NavLinks />
        <div className="ml-auto flex items-center gap-2">
          <CopyLink />
          {active ? (
            <TabContext.Provider value={active}>
              <WatchLinkButton key={active.id} />
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
  const lists = useSession((s) => canList(agentCapabilities(s.facts)));
  // Answer keys work in every view: the first waiting card answers, wherever it shows.
  const keysRoot = useRef<HTMLDivElement>(null);
  const firstWaiting = useSession((s) => s.pending[0]?.seq);
  useRequestShortcuts(keysRoot, firstWaiting !== undefined, firstWaiting);
  // Start agent sends nothing, so it opens Raw: the note there says why until another tab is picked.
  const [startedRaw, setStartedRaw] = useState(false);
  const pick = (tab: ColumnTab) => {
    setStartedRaw(false);
    setColumn(tab);
  };
  /** Whatever drafts a frame shows it in the raw editor. */
  const toRaw = (text: string) => {
    setDraft(text);
    pick("raw");
  };

  if (connection === "no-token" || connection === "unauthorized") {
    return <TokenMessage refused={connection === "unauthorized"} />;
  }
  if (tapId !== undefined) return <TappedWorkspace tapId={tapId} />;
  return (
    <div ref={keysRoot} className="contents">
      <PageShortcuts.Provider value>
        <TabBar />
        <WorkspacePanels
          left={
            <>
              <AgentControls
                onConnect={() => pick("prompt")}
                onStart={() => {
                  setColumn("raw");
                  setStartedRaw(true);
                }}
              />
              <ColumnTabs active={column} onChange={pick} hidden={lists ? [] : ["sessions"]} />
              <div className="border-b border-zinc-800 pb-2" role="tabpanel" data-testid={`column-panel-${column}`}>
                {column === "prompt" ? <ConnectPanel /> : null}
                {column === "sessions" ? <SessionsPanel /> : null}
                {column === "compose" ? <ComposePanel onToRaw={toRaw} /> : null}
                {column === "raw" ? (
                  <>
                    {startedRaw ? (
                      <p data-testid="raw-start-note" className="px-3 pt-2 text-xs text-zinc-400">
                        Start agent only started the process: nothing has been sent. Write{" "}
                        <code className="text-zinc-300">initialize</code> here, or use Compose for a form per method.
                      </p>
                    ) : null}
                    <Composer draft={draft} onDraftChange={setDraft} />
                    <SentHistory onEdit={setDraft} />
                  </>
                ) : null}
              </div>
              <PendingRequests onPick={toRaw} />
            </>
          }
        />
      </PageShortcuts.Provider>
    </div>
  );
}

/** Left column (controls over stderr) beside the views, all resizable; sizes kept in localStorage. */
function WorkspacePanels({ left }: { left: React.ReactNode }) {
  const columns = useDefaultLayout({ id: "acp-playground.layout.columns", panelIds: ["controls", "views"] });
  const rows = useDefaultLayout({ id: "acp-playground.layout.left", panelIds: ["left-main", "stderr"] });
  const controls = usePanelRef();
  const stderr = usePanelRef();
  // An empty stderr pane is folded, so the controls above it get the room; its first output unfolds it
  // unless the user folded it by hand.
  const stderrEmpty = useSession((s) => s.stderr.length === 0);
  const foldedByHand = useRef(false);
  useEffect(() => {
    const pane = stderr.current;
    if (!pane) return;
    if (stderrEmpty) pane.collapse();
    else if (!foldedByHand.current) pane.expand();
  }, [stderrEmpty, stderr]);
  return (
    <Group
      orientation="horizontal"
      className="min-h-0 flex-1"
      data-testid="tab-panel"
      defaultLayout={columns.defaultLayout}
      onLayoutChanged={columns.onLayoutChanged}
    >
      <Panel
        id="controls"
        panelRef={controls}
        defaultSize="30"
        minSize={320}
        maxSize="60"
        collapsible
        collapsedSize={0}
        data-testid="left-column"
      >
        <aside className="flex h-full flex-col" aria-label="Agent controls">
          <Group
            orientation="vertical"
            className="min-h-0 flex-1"
            defaultLayout={rows.defaultLayout}
            onLayoutChanged={rows.onLayoutChanged}
          >
            <Panel id="left-main" minSize="25" className="!overflow-y-auto" data-testid="left-scroll">
              {left}
            </Panel>
            <Separator className={`h-1 ${separator}`} aria-label="Resize the stderr pane" />
            <Panel id="stderr" panelRef={stderr} defaultSize="16" minSize={96} collapsible collapsedSize={30}>
              <StderrPane
                onToggle={() => {
                  const pane = stderr.current;
                  if (!pane) return;
                  foldedByHand.current = !pane.isCollapsed();
                  if (pane.isCollapsed()) pane.expand();
                  else pane.collapse();
                }}
              />
            </Panel>
          </Group>
        </aside>
      </Panel>
      <Separator
        className={`w-1 ${separator}`}
        aria-label="Resize the controls column"
        data-testid="column-separator"
      />
      <Panel id="views" minSize="35">
        <main className="flex h-full min-w-0 flex-col">
          <ViewPane
            leading={
              <CollapseToggle
                onToggle={() =>
                  controls.current?.isCollapsed() ? controls.current.expand() : controls.current?.collapse()
                }
              />
            }
          />
        </main>
      </Panel>
    </Group>
  );
}

function CollapseToggle({ onToggle }: { onToggle: () => void }) {
  return (
    <button
      type="button"
      data-testid="toggle-controls"
      onClick={onToggle}
      title="Hide or show the controls column (drag the edge to resize it)"
      className="mb-1 mr-1 self-center rounded px-1 text-[11px] text-zinc-400 hover:bg-zinc-800 hover:text-zinc-200"
      aria-label="Hide or show the controls column"
    >
      ⇤⇥
    </button>
  );
}
