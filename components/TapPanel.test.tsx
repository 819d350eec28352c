/** A tap's column (TapPanel) and the tab bar's list of taps (TapsMenu), as a team server's people and its admin see them. */
import { act, cleanup, render, screen } from "@testing-library/react";
import type { Socket } from "socket.io-client";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TapInfo } from "@/lib/contracts/tap-wire";
import type { Me } from "@/lib/contracts/transcript-meta";
import { renderInTab, runningSession } from "@/test/component-kit";
import { TOKEN_KEY } from "./page-storage";
import { TapsStore } from "./state/taps-store";

// The page's taps store, over a fake taps socket and a fake GET /api/me.
const taps = vi.hoisted((): { store?: unknown } => ({}));
vi.mock("./state/taps-store", async (original) => {
  const real = await original<typeof import("./state/taps-store")>();
  return { ...real, getTapsStore: () => taps.store };
});

const TAP_ID = "feedfacefeedface";
const tap = (owner?: string): TapInfo => ({
  id: TAP_ID,
  clientId: `tap-${TAP_ID}`,
  agent: { profile: "editor", pid: 7, command: "claude", args: [], cwd: "/w" },
  startedAt: 0,
  connected: true,
  exited: false,
  ...(owner ? { owner } : {}),
});

/** The taps store as the page has it: `me` is who its token is, `listed` what the relay told it of. */
async function tapsStore(me: Me, listed: TapInfo[]): Promise<void> {
  sessionStorage.setItem(TOKEN_KEY, "t0k");
  const handlers = new Map<string, (e: unknown) => void>();
  const store = new TapsStore(
    () => ({ on: (event: string, h: (e: unknown) => void) => handlers.set(event, h) }) as unknown as Socket,
    () => Promise.resolve(me),
  );
  taps.store = store;
  await act(async () => {
    store.connect();
    handlers.get("taps")!({ taps: listed });
  });
}

afterEach(() => cleanup());

describe("TapsMenu", () => {
  it("names whose each tap is for the admin, who is told of everyone's", async () => {
    const { TapsMenu } = await import("./TapsMenu");
    await tapsStore({}, [tap("alice"), { ...tap(), id: "0123456789abcdef" }]);
    const { unmount } = render(<TapsMenu />);
    expect(screen.getAllByTestId("tap-owner").map((e) => e.textContent)).toEqual([" · alice"]);
    unmount();
    // A person is told of their own only: no name to add.
    await tapsStore({ owner: "alice" }, [tap("alice")]);
    render(<TapsMenu />);
    expect(screen.queryByTestId("tap-owner")).toBeNull();
  });
});

describe("TapPanel", () => {
  it("offers injection into a tap of the page's own person", async () => {
    await tapsStore({ owner: "alice" }, [tap("alice")]);
    const { store, relay } = runningSession();
    const { TapPanel } = await import("./TapPanel");
    act(() => relay.fire("relay:hello", { clientId: `tap-${TAP_ID}-t1` }));
    renderInTab(<TapPanel tapId={TAP_ID} />, store);
    expect(screen.getByTestId<HTMLInputElement>("tap-injection").disabled).toBe(false);
    expect(screen.queryByTestId("tap-refused")).toBeNull();
  });

  it("turns injection off with the reason for a tap that is another's", async () => {
    await tapsStore({ owner: "bob" }, [tap("alice")]);
    const { store } = runningSession();
    const { TapPanel } = await import("./TapPanel");
    renderInTab(<TapPanel tapId={TAP_ID} />, store);
    const toggle = screen.getByTestId<HTMLInputElement>("tap-injection");
    expect(toggle.disabled).toBe(true);
    expect(toggle.title).toMatch(/only the person who opened this tap, alice, or the server's admin/);
    expect(screen.getByTestId("tap-refused").textContent).toBe(toggle.title);
  });

  it("says the tap is not the page's to watch when the relay refused it", async () => {
    await tapsStore({ owner: "bob" }, []);
    const { store, relay } = runningSession();
    const { TapPanel } = await import("./TapPanel");
    renderInTab(<TapPanel tapId={TAP_ID} />, store);
    const message =
      "only the server's admin can see and watch this tapped conversation: it was opened with the relay's own token";
    act(() => relay.fire("agent:error", { code: "not_owner", message }));
    expect(screen.getByTestId("tap-panel").textContent).toContain("This tap is not yours to watch.");
    expect(screen.getByTestId("tap-refused").textContent).toBe(message);
    expect(screen.getByTestId<HTMLInputElement>("tap-injection").disabled).toBe(true);
  });
});
