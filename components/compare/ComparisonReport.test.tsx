import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Comparison, SideTurn } from "@/lib/features/compare/compare";
import { ComparisonReport } from "./ComparisonReport";

const side = (answer: string): SideTurn => ({ answer, stopReason: "end_turn", tools: [], files: [] });

describe("ComparisonReport", () => {
  it("does not show the answers a second time below the conversations: their plain text waits behind a summary", () => {
    const comparison: Comparison = {
      labels: ["gemini", "qwen"],
      differences: 1,
      turns: [
        { index: 0, prompt: "hi", a: side("Hello."), b: side("Hi there."), answersEqual: false, tools: [], files: [] },
      ],
    };
    render(<ComparisonReport comparison={comparison} />);
    expect(screen.getByTestId("compare-answers-equal").textContent).toBe("answers differ");
    const answers = screen.getByTestId("compare-answers");
    expect(answers.tagName).toBe("DETAILS");
    expect((answers as HTMLDetailsElement).open).toBe(false);
    expect(answers.contains(screen.getByTestId("compare-answer-a"))).toBe(true);
    expect(screen.getByTestId("compare-answer-b").textContent).toBe("Hi there.");
  });
});
