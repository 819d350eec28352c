"use client";
/**
 * One tab per agent: profile, what the session is about (its title or first
 * prompt), how many requests wait for the user (a pointer to the cards), the status dot; close (asks
 * first while the agent runs), and "+ New tab".
 */
import { conversationTopic } from "@/lib/features/protocols/registry";
import type { AgentStatus, ConnectionState } from "./state/snapshot";
import { getTabsStore, type Tab } from "./state/tabs-store";
import { useSession, useTabs } from "./state/use-session";
import { TapsMenu } from "./TapsMenu";
import { useTappedId } from "./state/use-taps";

function dotClass(agent: AgentStatus, connection: ConnectionState): string {
  if (connection !== "connected") return "bg-zinc-600 ring-1 ring-amber-400";
  switch (agent.state) {
    case "running":
      return "bg-emerald-400";
    case "starting":
      return "bg-amber-400";
    case "exited":
      return agent.code === 0 || (agent.code === null && agent.signal === "SIGTERM") ? "bg-zinc-500" : "bg-red-500";
    default:
      return "bg-zinc-700";
  }
}

/** Closing a tab stops its agent: ask first while it runs. */
export function confirmClose(tab: Tab): boolean {
  const agent = tab.store.getSnapshot().agent;
  if (agent.state !== "running" && agent.state !== "starting") return true;
  return window.confirm(
    `Close tab ${tab.id}? Its agent (${agent.state === "running" ? agent.agent.profile : "starting"}) will be stopped.`,
  );
}

function TabButton({ tab, active, closable }: { tab: Tab; active: boolean; closable: boolean }) {
  const agent = useSession((s) => s.agent, tab.store);
  const connection = useSession((s) => s.connection, tab.store);
  const info = agent.state === "running" ? agent.agent : agent.state === "exited" ? agent.agent : null;
  const profile = info?.profile ?? "new";
  const tapped = useTappedId(tab.store) !== undefined;
  const topic = useSession((s) => conversationTopic(s.conversation), tab.store);
  const waiting = useSession((s) => s.pending.length, tab.store);
  const tabs = getTabsStore();
  return (
    <div
      data-testid="agent-tab"
      data-tab={tab.id}
      data-active={active}
      data-status={agent.state}
      data-waiting={waiting > 0}
      className={`group flex h-full items-center border-r border-zinc-800 text-xs ${
        active ? "bg-zinc-950 text-zinc-100" : "bg-zinc-900/40 text-zinc-400 hover:bg-zinc-900 hover:text-zinc-200"
      }`}
    >
      <button
        type="button"
        role="tab"
        aria-selected={active}
        onClick={() => tabs.activate(tab.id)}
        onKeyDown={(e) => {
          if (closable && e.key === "Delete" && confirmClose(tab)) void tabs.close(tab.id);
        }}
        className="flex h-full items-center gap-2 pl-3 pr-2 focus:outline-none focus-visible:bg-zinc-800"
        title={`${info ? `pid ${info.pid} · ${info.cwd}` : "no agent started"}${closable ? " (Delete closes the tab)" : ""}`}
      >
        <span className="text-zinc-600 tabular-nums">{tab.id}</span>
        <span data-testid="tab-label">{profile}</span>
        {topic ? (
          <span data-testid="tab-topic" className="max-w-[14rem] truncate text-zinc-400" title={topic}>
            {topic}
          </span>
        ) : null}
        {waiting > 0 ? (
          // A pointer, not the question: the card is in the tab's conversation (docs/design.md).
          <span
            data-testid="tab-waiting"
            title={`${waiting} request${waiting === 1 ? "" : "s"} waiting for your answer`}
            className="rounded bg-amber-500/15 px-1 text-[10px] font-medium tabular-nums text-amber-200 ring-1 ring-inset ring-amber-500/40"
          >
            {waiting} waiting
          </span>
        ) : null}
        {tapped ? (
          <span
            data-testid="tab-tapped"
            className="rounded bg-violet-900/60 px-1 text-[10px] uppercase text-violet-200"
          >
            tapped
          </span>
        ) : null}
        <span aria-label={agent.state} className={`h-2 w-2 rounded-full ${dotClass(agent, connection)}`} />
      </button>
      {closable ? (
        // A tablist holds only tabs: for assistive technology and the keyboard, Delete on the tab closes it.
        <button
          type="button"
          data-testid="close-tab"
          aria-hidden="true"
          tabIndex={-1}
          title="Close tab (stops its agent)"
          onClick={() => {
            if (confirmClose(tab)) void tabs.close(tab.id);
          }}
          className="mr-1 rounded px-1 text-zinc-600 hover:bg-zinc-800 hover:text-red-300"
        >
          ×
        </button>
      ) : null}
    </div>
  );
}

export function TabBar() {
  const { tabs, activeId } = useTabs();
  return (
    <nav className="flex h-8 shrink-0 items-stretch border-b border-zinc-800 bg-zinc-900/30" aria-label="Agents">
      <div role="tablist" className="flex min-w-0 items-stretch overflow-x-auto">
        {tabs.map((tab) => (
          <TabButton key={tab.id} tab={tab} active={tab.id === activeId} closable={tabs.length > 1} />
        ))}
      </div>
      <button
        type="button"
        data-testid="new-tab"
        onClick={() => getTabsStore().add()}
        className="px-3 text-xs text-zinc-400 hover:bg-zinc-900 hover:text-sky-200"
        title="Another agent, side by side"
      >
        + New tab
      </button>
      <div className="ml-auto flex items-stretch">
        <TapsMenu />
      </div>
    </nav>
  );
}
