import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { renderInTab, runningSession, withoutLayout } from "@/test/component-kit";
import type { PromptTurn } from "@/lib/features/connect/flow-prompt";
import { ViewPane } from "../ViewPane";
import { TurnStatus } from "./TurnStatus";

beforeAll(withoutLayout);
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
});

const ended: PromptTurn = {
  ts: 0,
  ended: true,
  end: { label: "stopReason", value: '"end_turn"' },
  usage: { inputTokens: 24, outputTokens: 14, totalTokens: 38, from: "result.usage" },
  emptyResponse: true,
  failure: "session/prompt failed: boom",
};

describe("TurnStatus under the prompt box", () => {
  it("leaves the ended turn's stopReason and tokens to the Session view's turn footer, keeping the notices", () => {
    const { store } = runningSession();
    renderInTab(
      <>
        <ViewPane />
        <TurnStatus turn={ended} />
      </>,
      store,
    );
    expect(screen.getByTestId("view-pane").dataset.view).toBe("session");
    expect(screen.queryByTestId("prompt-usage")).toBeNull();
    expect(screen.queryByTestId("turn-end")).toBeNull();
    expect(screen.getByTestId("empty-response-notice")).toBeTruthy();
    expect(screen.getByTestId("turn-error").textContent).toContain("boom");

    // Another view has no turn footer: the dock says how the turn ended.
    fireEvent.click(screen.getByTestId("view-waterfall"));
    expect(screen.getByTestId("turn-end").textContent).toContain("end_turn");
    expect(screen.getByTestId("prompt-usage").textContent).toContain("in 24 · out 14 · total 38");

    fireEvent.click(screen.getByTestId("view-session"));
    expect(screen.queryByTestId("prompt-usage")).toBeNull();
  });

  it("shows the line when no view is shown beside it", () => {
    const { store } = runningSession();
    renderInTab(<TurnStatus turn={ended} />, store);
    expect(screen.getByTestId("prompt-usage")).toBeTruthy();
  });
});
