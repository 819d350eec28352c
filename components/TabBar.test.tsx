import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { AGENT, FakeRelay } from "@/test/component-kit";
import { TOKEN_KEY } from "./page-storage";

// The tabs reach a relay in memory (the store takes a socket opener for this).
const relays = vi.hoisted(() => ({ current: undefined as FakeRelay | undefined }));
vi.mock("./state/tabs-store", async (original) => {
  const real = await original<typeof import("./state/tabs-store")>();
  let store: InstanceType<typeof real.TabsStore> | undefined;
  return { ...real, getTabsStore: () => (store ??= new real.TabsStore(relays.current!.open)) };
});

beforeAll(() => {
  vi.stubGlobal("fetch", async () => Response.json({}));
});

afterEach(() => cleanup());

describe("TabBar", () => {
  it("names the tab's agent, points to its waiting requests, and closes tabs only when there are two", async () => {
    sessionStorage.setItem(TOKEN_KEY, "t0k");
    const relay = (relays.current = new FakeRelay());
    const { getTabsStore } = await import("./state/tabs-store");
    const { TabBar } = await import("./TabBar");
    act(() => getTabsStore().init());
    render(<TabBar />);
    act(() => {
      relay.fire("connect");
      relay.fire("agent:started", AGENT);
      relay.fire("frames", [
        relay.frame("from-agent", { id: 7, method: "session/request_permission", params: { sessionId: "s1" } }),
      ]);
    });
    const first = screen.getByTestId("agent-tab");
    expect(screen.getByTestId("tab-label").textContent).toBe("echo");
    expect(first.getAttribute("data-status")).toBe("running");
    expect(screen.getByTestId("tab-waiting").textContent).toBe("1 waiting");
    // One tab: nothing to close it with.
    expect(screen.queryByTestId("close-tab")).toBeNull();

    fireEvent.click(screen.getByTestId("new-tab"));
    const tabs = screen.getAllByRole("tab");
    expect(tabs).toHaveLength(2);
    expect(tabs.map((t) => t.getAttribute("aria-selected"))).toEqual(["false", "true"]);
    expect(screen.getAllByTestId("close-tab")).toHaveLength(2);

    fireEvent.click(tabs[0]!);
    expect(screen.getAllByRole("tab").map((t) => t.getAttribute("aria-selected"))).toEqual(["true", "false"]);
  });
});
