"use client";
/**
 * The whole page (docs/design.md#layout): the page header, the tab bar, the connection strip
 * (AgentControls), then the conversation with its views and, at its bottom, what waits for the
 * user and the prompt box. Compose / Raw / Sessions / stderr open as a side panel on the right
 * when wanted; which one is open is kept per tab (across reloads), its width per browser.
 */
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Group, Panel, Separator, useDefaultLayout } from "react-resizable-panels";
import { AgentControls } from "./AgentControls";
import { PANEL_LABEL, PANEL_STATES, PanelToggles, type PanelState, type PanelTab } from "./compose/PanelToggles";
import { ComposePanel } from "./compose/ComposePanel";
import { ConnectPanel } from "./compose/ConnectPanel";
import { SessionsPanel } from "./compose/SessionsPanel";
import { agentCapabilities } from "@/lib/folds/agent-facts";
import { canList } from "@/lib/features/compose/session-actions";
import { SentHistory } from "./compose/SentHistory";
import { usePersistedTabState } from "./compose/use-persisted-tab-state";
import { Composer } from "./Composer";
import { ConnectionBadge } from "./ConnectionBadge";
import { PageHeader } from "./PageHeader";
import { takePreselectedProfile } from "./page-storage";
import { PendingRequests, PolicyDisclosure, useInlineSeqs } from "./PendingRequests";
import { StderrPane } from "./StderrPane";
import { TabBar } from "./TabBar";
import { TappedWorkspace } from "./TapPanel";
import { getTabsStore } from "./state/tabs-store";
import { TokenMessage } from "./TokenMessage";
import { TabContext, useSession, useTabState, useTabs } from "./state/use-session";
import { useTappedId } from "./state/use-taps";
import { useWaitingTitle } from "./use-waiting-title";
import { PageShortcuts, useRequestShortcuts } from "./answer/shortcuts";
import { WaitingOnAgent } from "./answer/RequestNotices";
import { useNow } from "./compose/use-now";
import { canWithdraw } from "@/lib/features/answers/request-cancel";
import { ViewPane } from "./ViewPane";

const separator =
  "w-1 bg-zinc-800 outline-none transition-colors hover:bg-sky-700 focus-visible:bg-sky-500 data-[separator=active]:bg-sky-500";

export function Playground() {
  const { ready, tabs, activeId } = useTabs();

  // "Replay as mock agent" from another page: taken here, once, so only the tab it opens gets it.
  useEffect(() => getTabsStore().init(takePreselectedProfile()), []);
  useWaitingTitle(tabs);

  const active = tabs.find((t) => t.id === activeId) ?? tabs[0];

  return (
    <div className="flex h-dvh flex-col">
      <PageHeader>
        {active ? (
          <TabContext.Provider value={active}>
            <ConnectionBadge />
          </TabContext.Provider>
        ) : null}
      </PageHeader>
      {ready && active ? (
        <TabContext.Provider value={active}>
          <Workspace key={active.id} />
        </TabContext.Provider>
      ) : null}
    </div>
  );
}

/** The active tab: tab bar, connection strip, conversation and panel (remounted per tab). */
function Workspace() {
  const connection = useSession((s) => s.connection);
  const tapId = useTappedId();
  // The draft lives here because the raw editor, the forms, the history and the waiting cards fill it.
  const [draft, setDraft] = useTabState("draft", "");
  const [panel, setPanel] = usePersistedTabState<PanelState>("panel", "none", PANEL_STATES);
  const lists = useSession((s) => canList(agentCapabilities(s.facts)));
  const stderrChunks = useSession((s) => s.stderr.length);
  const outgoing = useOutgoingCount();
  // Answer keys work in every view: the first waiting card answers, wherever it shows.
  const keysRoot = useRef<HTMLDivElement>(null);
  const firstWaiting = useSession((s) => s.pending[0]?.seq);
  useRequestShortcuts(keysRoot, firstWaiting !== undefined, firstWaiting);
  const shownInline = useInlineSeqs(keysRoot);
  // Start agent sends nothing, so it opens Raw: the note there says why until another panel is picked.
  const [startedRaw, setStartedRaw] = useState(false);
  const pick = (tab: PanelState) => {
    setStartedRaw(false);
    setPanel(tab);
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
    <div ref={keysRoot} className="flex min-h-0 flex-1 flex-col">
      <PageShortcuts.Provider value>
        <TabBar />
        <AgentControls
          onStart={() => {
            setPanel("raw");
            setStartedRaw(true);
          }}
        />
        <WorkspacePanels
          open={panel}
          panel={
            panel === "none" ? null : (
              <ToolPanel tab={panel} onClose={() => pick("none")}>
                {panel === "sessions" ? <SessionsPanel /> : null}
                {panel === "compose" ? <ComposePanel onToRaw={toRaw} /> : null}
                {panel === "stderr" ? <StderrPane inPanel /> : null}
                {panel === "raw" ? (
                  <>
                    {startedRaw ? (
                      <p data-testid="raw-start-note" className="px-3 pt-2 text-xs text-zinc-400">
                        Start agent only started the process: nothing has been sent. Write{" "}
                        <code className="text-zinc-300">initialize</code> here, or use Compose for a form per method.
                      </p>
                    ) : null}
                    <Composer draft={draft} onDraftChange={setDraft} />
                    <OutgoingRequests />
                    <SentHistory onEdit={setDraft} />
                  </>
                ) : null}
              </ToolPanel>
            )
          }
        >
          <ViewPane
            trailing={
              <PanelToggles
                open={panel}
                onChange={pick}
                hidden={lists ? [] : ["sessions"]}
                counts={{ stderr: stderrChunks, raw: outgoing }}
              />
            }
          />
          <div
            data-testid="prompt-dock"
            className="flex max-h-[55%] shrink-0 flex-col overflow-y-auto border-t border-zinc-800 bg-zinc-900/30"
          >
            <PendingRequests onPick={toRaw} shownInline={shownInline} />
            <ConnectPanel />
            <PolicyDisclosure />
          </div>
        </WorkspacePanels>
      </PageShortcuts.Provider>
    </div>
  );
}

/** The client's requests the agent has not answered (those a cancel can withdraw), counted on the Raw toggle. */
function useOutgoingCount(): number {
  const running = useSession((s) => s.agent.state === "running");
  // The index changes in place; its version says when the unanswered set did.
  useSession((s) => s.index.version);
  const index = useSession((s) => s.index);
  return running ? index.unanswered("to-agent").filter((f) => canWithdraw(f, true)).length : 0;
}

/** The Raw panel's list of them, each with its Cancel request ($/cancel_request). */
function OutgoingRequests() {
  const now = useNow(1000);
  return (
    <div className="px-3 pb-2 empty:hidden">
      <WaitingOnAgent now={now} />
    </div>
  );
}

/** One tool as the side panel's content: its title, a close button, and the tool scrolling below. */
function ToolPanel({ tab, onClose, children }: { tab: PanelTab; onClose: () => void; children: ReactNode }) {
  return (
    <aside
      id="tool-panel"
      className="flex h-full min-w-0 flex-col border-l border-zinc-800 bg-zinc-950"
      aria-label={`${PANEL_LABEL[tab]} panel`}
      data-testid={`column-panel-${tab}`}
      onKeyDown={(e) => {
        // Escape in a field is the field's (the raw editor's draft stays); on the panel's own controls it closes.
        // A menu inside that closed on this Escape took it (preventDefault): the panel stays.
        if (e.defaultPrevented) return;
        if (e.key === "Escape" && !(e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement)) {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <header className="flex h-8 shrink-0 items-center gap-2 border-b border-zinc-800 px-3">
        <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">{PANEL_LABEL[tab]}</h2>
        <button
          type="button"
          data-testid="panel-close"
          onClick={onClose}
          aria-label={`Close the ${PANEL_LABEL[tab]} panel`}
          title="Close (Esc)"
          className="ml-auto rounded px-1.5 text-sm leading-none text-zinc-400 hover:bg-zinc-800 hover:text-zinc-100"
        >
          ×
        </button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto" data-testid="panel-scroll">
        {children}
      </div>
    </aside>
  );
}

/**
 * The conversation beside the side panel, resizable; the panel's width is kept in localStorage. The
 * conversation stays mounted (it keeps its scroll and focus) when the panel opens or closes.
 */
function WorkspacePanels({ open, panel, children }: { open: PanelState; panel: ReactNode; children: ReactNode }) {
  const layout = useDefaultLayout({ id: "acp-playground.layout.panel", panelIds: ["views", "tools"] });
  const closed = open === "none";
  return (
    <Group
      orientation="horizontal"
      className="min-h-0 flex-1"
      data-testid="tab-panel"
      data-panel={open}
      defaultLayout={layout.defaultLayout}
      onLayoutChanged={layout.onLayoutChanged}
    >
      <Panel id="views" minSize="35">
        <main className="flex h-full min-w-0 flex-col" data-testid="conversation-column">
          {children}
        </main>
      </Panel>
      {closed ? null : (
        <>
          <Separator className={separator} aria-label="Resize the side panel" data-testid="panel-separator" />
          <Panel id="tools" defaultSize="34" minSize={320} maxSize="60">
            {panel}
          </Panel>
        </>
      )}
    </Group>
  );
}
