import { fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { renderInTab, runningSession, withoutLayout } from "@/test/component-kit";
import { ViewPane } from "./ViewPane";

const VIEW_KEY = "acp-playground.view";

beforeAll(withoutLayout);
afterEach(() => localStorage.clear());

const pane = () => screen.getByTestId("view-pane");
const selected = () =>
  screen
    .getAllByRole("tab")
    .filter((t) => t.getAttribute("aria-selected") === "true")
    .map((t) => t.dataset.testid);

describe("ViewPane", () => {
  it("opens on the Session view by default, with one selected tab", () => {
    const { store } = runningSession();
    renderInTab(<ViewPane />, store);
    expect(pane().dataset.view).toBe("session");
    expect(selected()).toEqual(["view-session"]);
    expect(screen.getAllByRole("tab").map((t) => t.dataset.testid)).toEqual([
      "view-session",
      "view-frames",
      "view-waterfall",
      "view-insights",
    ]);
  });

  it("a tab click switches the view and remembers it for new tabs", () => {
    const { store } = runningSession();
    renderInTab(<ViewPane />, store);
    fireEvent.click(screen.getByTestId("view-frames"));
    expect(pane().dataset.view).toBe("frames");
    expect(selected()).toEqual(["view-frames"]);
    expect(localStorage.getItem(VIEW_KEY)).toBe("frames");
  });

  it("opens on the remembered view; an unknown stored value falls back to Session", () => {
    localStorage.setItem(VIEW_KEY, "waterfall");
    const first = renderInTab(<ViewPane />, runningSession().store);
    expect(pane().dataset.view).toBe("waterfall");
    first.unmount();
    localStorage.setItem(VIEW_KEY, "bogus");
    renderInTab(<ViewPane />, runningSession().store);
    expect(pane().dataset.view).toBe("session");
  });

  it("a goto opens the Frames view", () => {
    const { store } = runningSession();
    renderInTab(<ViewPane goto={{ seq: 1 }} />, store);
    expect(pane().dataset.view).toBe("frames");
  });
});
