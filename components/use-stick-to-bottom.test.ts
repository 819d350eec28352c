import { describe, expect, it } from "vitest";
import { followsAfterScroll } from "./use-stick-to-bottom";

const box = (scrollTop: number, scrollHeight: number, clientHeight = 100) => ({
  scrollTop,
  scrollHeight,
  clientHeight,
});

describe("followsAfterScroll", () => {
  it("keeps following when the content grew under a scroll to the bottom", () => {
    // Scrolled to the bottom of 200 px, then a row measured taller made it 300 px before the event.
    expect(followsAfterScroll(true, box(100, 300), 0, 24)).toBe(true);
  });

  it("stops when the user scrolls up, and resumes at the bottom", () => {
    expect(followsAfterScroll(true, box(50, 300), 200, 24)).toBe(false);
    expect(followsAfterScroll(false, box(120, 300), 50, 24)).toBe(false);
    expect(followsAfterScroll(false, box(190, 300), 120, 24)).toBe(true);
  });
});
