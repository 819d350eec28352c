import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { FakeRelay, withoutLayout } from "@/test/component-kit";
import { TOKEN_KEY } from "./page-storage";

// The page's tabs reach a relay in memory (the store takes a socket opener for this).
const relays = vi.hoisted(() => ({ current: undefined as FakeRelay | undefined }));
vi.mock("./state/tabs-store", async (original) => {
  const real = await original<typeof import("./state/tabs-store")>();
  let store: InstanceType<typeof real.TabsStore> | undefined;
  return {
    ...real,
    getTabsStore: () => (store ??= new real.TabsStore(relays.current!.open)),
  };
});

beforeAll(() => {
  withoutLayout();
  vi.stubGlobal("fetch", async () => Response.json({ signedIn: false, start: "npm-start" }));
});

afterEach(() => cleanup());

async function renderPage() {
  sessionStorage.setItem(TOKEN_KEY, "t0k");
  relays.current ??= new FakeRelay();
  const { Playground } = await import("./Playground");
  const page = render(<Playground />);
  act(() => relays.current!.fire("connect"));
  return page;
}

describe("Playground: one layout", () => {
  it("puts the connection in one strip and the prompt under the conversation, panels closed", async () => {
    await renderPage();
    const strip = await screen.findByTestId("agent-bar");
    for (const id of ["profile-select", "connect", "start-agent", "stop-agent", "agent-status"])
      expect(within(strip).getByTestId(id)).toBeTruthy();
    // Not started: the settings used once per connection show under the strip.
    expect(within(strip).getByTestId("cwd-input")).toBeTruthy();
    const column = screen.getByTestId("conversation-column");
    expect(within(column).getByTestId("view-pane")).toBeTruthy();
    expect(within(column).getByTestId("prompt-dock")).toBeTruthy();
    expect(screen.getByTestId("tab-panel").getAttribute("data-panel")).toBe("none");
    expect(screen.queryByTestId("column-panel-compose")).toBeNull();
  });

  it("opens a panel from its toggle, closes it from there, its ×, or Escape, and keeps the choice for the tab", async () => {
    const page = await renderPage();
    fireEvent.click(await screen.findByTestId("column-tab-raw"));
    expect(screen.getByTestId("column-panel-raw")).toBeTruthy();
    expect(screen.getByTestId("column-tab-raw").getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("composer")).toBeTruthy();

    fireEvent.click(screen.getByTestId("column-tab-stderr"));
    expect(screen.queryByTestId("column-panel-raw")).toBeNull();
    expect(screen.getByTestId("stderr-pane")).toBeTruthy();
    fireEvent.keyDown(screen.getByTestId("clear-stderr"), { key: "Escape" });
    expect(screen.queryByTestId("column-panel-stderr")).toBeNull();

    fireEvent.click(screen.getByTestId("column-tab-compose"));
    fireEvent.click(screen.getByTestId("column-tab-compose"));
    expect(screen.queryByTestId("column-panel-compose")).toBeNull();

    fireEvent.click(screen.getByTestId("column-tab-raw"));
    fireEvent.click(screen.getByTestId("panel-close"));
    expect(screen.queryByTestId("column-panel-raw")).toBeNull();

    // Remembered per tab, across a reload of the page.
    fireEvent.click(screen.getByTestId("column-tab-compose"));
    page.unmount();
    vi.resetModules();
    await renderPage();
    expect(await screen.findByTestId("column-panel-compose")).toBeTruthy();
  });
});
