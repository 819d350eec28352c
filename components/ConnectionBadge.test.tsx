import { act, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeRelay, renderInTab } from "@/test/component-kit";
import { ConnectionBadge } from "./ConnectionBadge";
import { SessionStore } from "./state/session-store";

function badge() {
  const relay = new FakeRelay();
  const store = new SessionStore({ token: "t0k", clientIdKey: "tab-badge", openSocket: relay.open });
  renderInTab(<ConnectionBadge />, store);
  return { store, relay, el: () => screen.getByTestId("connection") };
}

describe("ConnectionBadge", () => {
  it("follows the relay connection: connecting, connected (its session in the tooltip), reconnecting with why", () => {
    sessionStorage.setItem("tab-badge", "abcdef0123456789");
    const { store, relay, el } = badge();
    expect(el().dataset.state).toBe("idle");
    expect(el().textContent).toBe("starting");
    act(() => store.connect());
    expect(el().dataset.state).toBe("connecting");
    expect(el().textContent).toBe("connecting…");
    act(() => relay.fire("connect"));
    expect(el().dataset.state).toBe("connected");
    expect(el().textContent).toBe("connected");
    // Only the first 8 characters of the relay session's id, and only in the tooltip.
    expect(el().title).toBe("This tab's connection to the relay (session abcdef01)");
    expect(el().textContent).not.toContain("abcdef");
    act(() => relay.fire("disconnect", "transport close"));
    expect(el().textContent).toBe("reconnecting…");
    expect(el().title).toBe("transport close");
  });

  it("says refused when the relay refuses the token, and keeps why in the tooltip", () => {
    const { store, relay, el } = badge();
    act(() => store.connect());
    act(() => relay.fire("connect_error", new Error("unauthorized")));
    expect(el().dataset.state).toBe("unauthorized");
    expect(el().textContent).toBe("refused");
    expect(el().title).toBe("unauthorized");
  });

  it("says no token when the page has none", () => {
    const relay = new FakeRelay();
    const store = new SessionStore({ token: undefined, clientIdKey: "tab-none", openSocket: relay.open });
    renderInTab(<ConnectionBadge />, store);
    act(() => store.connect());
    expect(screen.getByTestId("connection").dataset.state).toBe("no-token");
    expect(screen.getByTestId("connection").textContent).toBe("no token");
  });
});
