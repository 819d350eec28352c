/**
 * The playground's tabs: each tab is its own relay session (its own socket,
 * clientId and agent) with its own SessionStore. The list and the active tab
 * survive a reload (sessionStorage), and each tab's store then re-attaches to
 * its agent with the clientId it kept.
 */
import type { OpenSocket } from "./relay-connection";
import { sentHistoryKey, SessionStore } from "./session-store";
import { SnapshotStore } from "./snapshot-store";
import { takeAccessToken } from "../page-storage";

const TABS_KEY = "acp-playground.tabs";
const CLIENT_ID_PREFIX = "acp-playground.clientId.";
/** Where the single-tab playground kept its clientId: tab 1 takes it over. */
const LEGACY_CLIENT_ID_KEY = "acp-playground.clientId";

export interface Tab {
  /** Stable per tab, from 1; names the sessionStorage key of its clientId. */
  id: number;
  store: SessionStore;
  /** View state that must survive switching tabs (drafts, filters, selection). */
  ui: Map<string, unknown>;
}

export interface TabsSnapshot {
  /** False until the browser side has read sessionStorage (and on the server). */
  ready: boolean;
  tabs: readonly Tab[];
  activeId: number;
}

const INITIAL: TabsSnapshot = { ready: false, tabs: [], activeId: 0 };

/** The tab's profile choice (AgentControls' tab state). */
export const PROFILE_UI_KEY = "agent.profile";

export const clientIdKey = (tabId: number) => `${CLIENT_ID_PREFIX}${tabId}`;

/** A tab id's stored clientId and history; a leftover would re-attach to someone else's agent. */
function forgetTab(tabId: number): void {
  sessionStorage.removeItem(clientIdKey(tabId));
  sessionStorage.removeItem(sentHistoryKey(clientIdKey(tabId)));
}

function readSaved(): { ids: number[]; activeId: number } | undefined {
  try {
    const saved = JSON.parse(sessionStorage.getItem(TABS_KEY) ?? "null") as {
      ids?: unknown;
      activeId?: unknown;
    } | null;
    const ids = Array.isArray(saved?.ids) ? saved.ids.filter((n): n is number => Number.isInteger(n) && n > 0) : [];
    if (ids.length === 0) return undefined;
    const activeId = typeof saved?.activeId === "number" && ids.includes(saved.activeId) ? saved.activeId : ids[0]!;
    return { ids: [...new Set(ids)], activeId };
  } catch {
    return undefined;
  }
}

export class TabsStore extends SnapshotStore<TabsSnapshot> {
  private token: string | undefined;

  /** `openSocket`: how the tabs reach the relay (the page's own unless a test hands in a fake). */
  constructor(private readonly openSocket?: OpenSocket) {
    super(INITIAL);
  }

  static readonly serverSnapshot = INITIAL;

  protected override changed(): void {
    sessionStorage.setItem(
      TABS_KEY,
      JSON.stringify({ ids: this.snapshot.tabs.map((t) => t.id), activeId: this.snapshot.activeId }),
    );
  }

  private makeTab(id: number): Tab {
    const ui = new Map<string, unknown>();
    const profile = () => {
      const chosen = ui.get(PROFILE_UI_KEY);
      return typeof chosen === "string" && chosen ? chosen : undefined;
    };
    const store = new SessionStore({
      token: this.token,
      clientIdKey: clientIdKey(id),
      profile,
      openSocket: this.openSocket,
    });
    return { id, store, ui };
  }

  /**
   * Restores the saved tabs (or opens the first) and connects them all; idempotent.
   * `profile` ("Replay as mock agent"): preselected in a new tab when this page
   * already had tabs, so an agent running in one keeps its own profile.
   */
  init(profile?: string): void {
    if (this.snapshot.ready) {
      if (profile) this.add(profile);
      return;
    }
    this.token = takeAccessToken();
    const restored = readSaved();
    const saved = restored ?? { ids: [1], activeId: 1 };
    const legacy = sessionStorage.getItem(LEGACY_CLIENT_ID_KEY);
    if (legacy) {
      const first = saved.ids[0]!;
      if (!sessionStorage.getItem(clientIdKey(first))) sessionStorage.setItem(clientIdKey(first), legacy);
      sessionStorage.removeItem(LEGACY_CLIENT_ID_KEY);
    }
    const tabs = saved.ids.map((id) => this.makeTab(id));
    if (profile && !restored) tabs[0]!.ui.set(PROFILE_UI_KEY, profile);
    this.set({ ready: true, tabs, activeId: saved.activeId });
    for (const tab of tabs) tab.store.connect();
    if (profile && restored) this.add(profile);
  }

  /** Opens a tab with a fresh relay session and makes it active. */
  add(profile?: string): Tab {
    const id = Math.max(0, ...this.snapshot.tabs.map((t) => t.id)) + 1;
    forgetTab(id);
    const tab = this.makeTab(id);
    if (profile) tab.ui.set(PROFILE_UI_KEY, profile);
    this.set({ tabs: [...this.snapshot.tabs, tab], activeId: id });
    tab.store.connect();
    return tab;
  }

  /** Opens a tab watching a tapped conversation (its clientId names the tap), or shows the one already open. */
  addTap(tapClientId: string): Tab {
    const open = this.snapshot.tabs.find((t) =>
      sessionStorage.getItem(clientIdKey(t.id))?.startsWith(`${tapClientId}-`),
    );
    if (open) {
      this.activate(open.id);
      return open;
    }
    const id = Math.max(0, ...this.snapshot.tabs.map((t) => t.id)) + 1;
    forgetTab(id);
    sessionStorage.setItem(clientIdKey(id), `${tapClientId}-t${id}`);
    const tab = this.makeTab(id);
    this.set({ tabs: [...this.snapshot.tabs, tab], activeId: id });
    tab.store.connect();
    return tab;
  }

  activate(id: number): void {
    if (id !== this.snapshot.activeId && this.snapshot.tabs.some((t) => t.id === id)) this.set({ activeId: id });
  }

  /** Closes a tab: stops its agent, closes its socket, forgets its clientId. The last tab stays. */
  async close(id: number): Promise<void> {
    const { tabs, activeId } = this.snapshot;
    const at = tabs.findIndex((t) => t.id === id);
    if (at < 0 || tabs.length === 1) return;
    const tab = tabs[at]!;
    const rest = tabs.filter((t) => t !== tab);
    const nextActive = activeId === id ? rest[Math.min(at, rest.length - 1)]!.id : activeId;
    this.set({ tabs: rest, activeId: nextActive });
    forgetTab(id);
    const state = tab.store.getSnapshot().agent.state;
    if (state === "running" || state === "starting") {
      // Wait for the relay to confirm, so the stop is not lost with the socket.
      let fallback: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([tab.store.stopAgent(), new Promise((r) => (fallback = setTimeout(r, 10_000)))]);
      clearTimeout(fallback);
    }
    tab.store.dispose();
  }
}

let tabsStore: TabsStore | undefined;

/** One tabs store per page. */
export function getTabsStore(): TabsStore {
  tabsStore ??= new TabsStore();
  return tabsStore;
}
