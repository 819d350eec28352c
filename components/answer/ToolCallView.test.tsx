import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ToolCallCardAbove, ToolCallView } from "./ToolCallView";

const WRITE = {
  toolCallId: "t1",
  title: "Write notes.md",
  kind: "edit",
  status: "pending",
  locations: [{ path: "/w/notes.md", line: 3 }],
  content: [
    { type: "diff", path: "/w/notes.md", oldText: "a\n", newText: "b\n" },
    { type: "content", content: { type: "text", text: "why: a note" } },
  ],
  rawInput: { path: "/w/notes.md" },
};

describe("ToolCallView", () => {
  it("shows the title, kind, status, each location with its line, the diff and the text", () => {
    render(<ToolCallView toolCall={WRITE} />);
    const view = screen.getByTestId("answer-tool-call");
    expect(view.textContent).toContain("Write notes.md");
    expect(view.textContent).toContain("edit");
    expect(view.textContent).toContain("pending");
    expect(screen.getByRole("listitem").textContent).toBe("/w/notes.md:3");
    expect(screen.getByTestId("tool-diff").getAttribute("data-path")).toBe("/w/notes.md");
    expect(screen.getByText("why: a note")).not.toBeNull();
    expect(screen.queryByTestId("tool-content-above")).toBeNull();
  });

  it("points to the tool call card above instead of repeating its diff there", () => {
    render(
      <ToolCallCardAbove.Provider value={true}>
        <ToolCallView toolCall={WRITE} />
      </ToolCallCardAbove.Provider>,
    );
    expect(screen.getByTestId("tool-content-above").textContent).toContain(
      "tool call t1: its diff in the tool call card above",
    );
    expect(screen.queryByTestId("tool-diff")).toBeNull();
    expect(screen.queryByText("why: a note")).toBeNull();
  });

  it("shows the content itself above a card when the request names no tool call id, and unknown items as sent", () => {
    render(
      <ToolCallCardAbove.Provider value={true}>
        <ToolCallView
          toolCall={{
            locations: [],
            content: [
              { type: "terminal", terminalId: "term-9" },
              { type: "odd", x: 1 },
            ],
          }}
        />
      </ToolCallCardAbove.Provider>,
    );
    expect(screen.getByTestId("answer-tool-call").textContent).toContain("(untitled tool call)");
    expect(screen.getByText("terminal term-9")).not.toBeNull();
    expect(screen.getByText(/"type": "odd"/)).not.toBeNull();
    expect(screen.queryByTestId("tool-content-above")).toBeNull();
  });
});
