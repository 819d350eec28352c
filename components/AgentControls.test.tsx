import { act, fireEvent, screen, within } from "@testing-library/react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { FakeRelay, renderInTab, runningSession } from "@/test/component-kit";
import { AgentControls } from "./AgentControls";
import { SessionStore } from "./state/session-store";

beforeAll(() => {
  vi.stubGlobal("fetch", async () => new Response(null, { status: 404 }));
});

describe("AgentControls: the connection strip", () => {
  it("shows the settings before a start, on a second row of the strip", () => {
    const relay = new FakeRelay();
    const store = new SessionStore({ token: "t0k", clientIdKey: "tab-1", openSocket: relay.open });
    store.connect();
    relay.fire("connect");
    renderInTab(<AgentControls />, store);
    const strip = screen.getByTestId("agent-bar");
    expect(within(strip).getByTestId("agent-options")).toBeTruthy();
    expect(within(strip).getByTestId("cwd-input")).toBeTruthy();
    expect(screen.getByTestId("agent-options-toggle").getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByTestId("agent-status").textContent).toBe("not started");
  });

  it("folds them once the agent runs, the status in one line; Options opens them again", () => {
    const { store } = runningSession();
    renderInTab(<AgentControls />, store);
    expect(screen.queryByTestId("agent-options")).toBeNull();
    const status = screen.getByTestId("agent-status");
    expect(status.getAttribute("data-status")).toBe("running");
    expect(status.textContent).toMatch(/running\s*pid 42/);
    // The command and cwd are there in full for whoever hovers.
    expect(status.querySelector("[title]")?.getAttribute("title")).toContain("echo-agent");
    fireEvent.click(screen.getByTestId("agent-options-toggle"));
    expect(screen.getByTestId<HTMLInputElement>("cwd-input").disabled).toBe(true);
    fireEvent.click(screen.getByTestId("agent-options-toggle"));
    expect(screen.queryByTestId("agent-options")).toBeNull();
  });

  it("after Connect, says the version and what the agent advertises, not the session id (the session header has it)", () => {
    const { store } = runningSession();
    renderInTab(<AgentControls />, store);
    const id = "b14e1d0f-2c3a-4b5d-8e9f-0a1b2c3d63a6";
    act(() => (store as unknown as { set(patch: object): void }).set({ handshake: { step: "ready", sessionId: id } }));
    const status = screen.getByTestId("connect-status");
    expect(status.getAttribute("data-step")).toBe("ready");
    expect(status.textContent).not.toContain("b14e1d0f");
    expect(status.querySelector(`[title="${id}"]`)).toBeNull();
  });
});
