import { act, cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderInTab, runningSession } from "@/test/component-kit";
import { WaterfallView } from "./WaterfallView";

/** The view's ResizeObserver callbacks, fired by the test (as a resizable panel's layout does). */
let resized: Array<(entries: Array<{ contentRect: { width: number } }>) => void> = [];
let frames: FrameRequestCallback[] = [];

beforeEach(() => {
  resized = [];
  frames = [];
  vi.stubGlobal(
    "ResizeObserver",
    class {
      constructor(cb: (typeof resized)[number]) {
        resized.push(cb);
      }
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  vi.stubGlobal("requestAnimationFrame", (cb: FrameRequestCallback) => frames.push(cb));
  vi.stubGlobal("cancelAnimationFrame", () => undefined);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const prompt = { id: 3, method: "session/prompt", params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] } };

describe("WaterfallView's clock", () => {
  it("starts when a turn starts, even when the view re-renders unchanged before the new frames reach it", () => {
    const { store, relay } = runningSession();
    renderInTab(<WaterfallView onHighlight={() => undefined} />, store);
    expect(screen.getByTestId("waterfall-empty")).toBeTruthy();
    const setInterval = vi.spyOn(globalThis, "setInterval");

    act(() => relay.fire("frames", [relay.frame("to-agent", prompt)]));
    act(() => {
      // The animation frame folds the prompt in (its update is a transition)...
      for (const cb of frames.splice(0)) cb(0);
      // ...and before that renders, an urgent update that changes nothing (a panel's layout
      // measuring the same width) renders the view again.
      for (const cb of resized) cb([{ contentRect: { width: 800 } }]);
    });

    expect(screen.getByTestId("wf-total").textContent).toContain("(running)");
    expect(setInterval.mock.calls.some(([, ms]) => ms === 250)).toBe(true);
  });
});
