import { act, fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AGENT, renderInTab, runningSession } from "@/test/component-kit";
import { StderrPane } from "./StderrPane";

describe("StderrPane", () => {
  it("shows the agent's stderr as text, counts its chunks, and Clear empties it", () => {
    const { store, relay } = runningSession();
    renderInTab(<StderrPane />, store);
    const pane = screen.getByTestId("stderr-pane");
    const clear = screen.getByTestId<HTMLButtonElement>("clear-stderr");
    expect(pane.textContent).toBe("");
    expect(clear.disabled).toBe(true);
    act(() => {
      relay.fire("agent:stderr", { ts: 1, text: "warming up\n" });
      // Chunks join as they came: a line may arrive in two.
      relay.fire("agent:stderr", { ts: 2, text: "<b>not markup</b> " });
      relay.fire("agent:stderr", { ts: 3, text: "done\n" });
    });
    expect(pane.textContent).toBe("warming up\n<b>not markup</b> done\n");
    expect(pane.querySelector("b")).toBeNull();
    const section = screen.getByRole("region", { name: "Agent stderr" });
    expect(within(section).getByText("3 chunks")).toBeTruthy();
    expect(clear.disabled).toBe(false);
    fireEvent.click(clear);
    expect(pane.textContent).toBe("");
    expect(within(section).getByText("0 chunks")).toBeTruthy();
    expect(clear.disabled).toBe(true);
  });

  it("starts empty again for a new agent", () => {
    const { store, relay } = runningSession();
    renderInTab(<StderrPane inPanel />, store);
    act(() => relay.fire("agent:stderr", { ts: 1, text: "old agent\n" }));
    expect(screen.getByTestId("stderr-pane").textContent).toBe("old agent\n");
    act(() => relay.fire("agent:started", { ...AGENT, pid: 43 }));
    expect(screen.getByTestId("stderr-pane").textContent).toBe("");
  });

  it("titles itself under a page's views, and leaves the title to the panel inside one", () => {
    const { store } = runningSession();
    const { unmount } = renderInTab(<StderrPane />, store);
    expect(screen.getByRole("heading", { name: "stderr" })).toBeTruthy();
    unmount();
    renderInTab(<StderrPane inPanel />, store);
    expect(screen.queryByRole("heading")).toBeNull();
  });
});
