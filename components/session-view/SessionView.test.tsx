import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { PageShortcuts } from "../answer/shortcuts";
import { renderInTab, runningSession, withoutLayout } from "@/test/component-kit";
import { SessionView } from "./SessionView";

const noop = () => {};

beforeAll(withoutLayout);
afterEach(cleanup);

describe("SessionView before a session", () => {
  it("points the playground's tab at its Connect button", () => {
    const { store } = runningSession();
    renderInTab(
      <PageShortcuts.Provider value>
        <SessionView onHighlight={noop} onShowFrames={noop} />
      </PageShortcuts.Provider>,
      store,
    );
    expect(screen.getByTestId("session-empty").textContent).toContain("Press Connect right above");
  });

  // A comparison's side has no Connect (the page's Run both starts it), nor has a watch link's page.
  it("names no Connect button where the page has none", () => {
    const { store } = runningSession();
    renderInTab(<SessionView onHighlight={noop} onShowFrames={noop} />, store);
    expect(screen.getByTestId("session-empty").textContent).toBe(
      "No session yet: it shows here once the agent has opened one.",
    );
  });
});
