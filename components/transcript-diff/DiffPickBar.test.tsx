import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DiffPickBar } from "./DiffPickBar";

afterEach(cleanup);

describe("DiffPickBar", () => {
  // Two turns of a one-turn transcript would diff its turn against the whole of it.
  it("offers two turns of one transcript only when it has two", () => {
    const turns: Record<string, number> = { one: 1, two: 2 };
    const bar = (id: string) => render(<DiffPickBar picks={[id]} onClear={() => {}} turnsOf={(t) => turns[t]} />);
    bar("one");
    expect(screen.queryByTestId("diff-turns")).toBeNull();
    expect(screen.getByTestId("diff-picks").textContent).toContain("pick another");
    cleanup();
    bar("two");
    expect(screen.getByTestId("diff-turns").getAttribute("href")).toBe("/transcripts/diff?a=two&b=two");
  });
});
