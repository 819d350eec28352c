import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SeqList, type ToolCallItem, type TerminalView } from "@/lib/folds/session-view";
import { LiveStateContext, type LiveState } from "./live-state";
import { TerminalsContext, ToolCallCard } from "./ToolCallCard";

const item = (fields: Partial<ToolCallItem>): ToolCallItem => ({
  type: "tool_call",
  toolCallId: "call-1",
  seqs: SeqList.of(3),
  ...fields,
});

function show(it: ToolCallItem, live: LiveState = "live", terminals: Record<string, TerminalView> = {}) {
  return render(
    <LiveStateContext.Provider value={live}>
      <TerminalsContext.Provider value={terminals}>
        <ToolCallCard item={it} />
      </TerminalsContext.Provider>
    </LiveStateContext.Provider>,
  );
}

describe("ToolCallCard", () => {
  it("shows the call's title, status and places; an unnamed call goes by its id", () => {
    show(
      item({
        title: "Edit app.ts",
        kind: "edit",
        status: "in_progress",
        locations: [{ path: "src/app.ts", line: 12 }],
      }),
    );
    expect(screen.getByTestId("tool-title").textContent).toBe("Edit app.ts");
    expect(screen.getByTestId("tool-status").textContent).toBe("in progress");
    expect(screen.getByTestId("tool-location").textContent).toBe("src/app.ts:12");
    show(item({ toolCallId: "call-9" }));
    expect(screen.getAllByTestId("tool-title")[1]!.textContent).toBe("call-9");
    expect(screen.getAllByTestId("tool-status")[1]!.textContent).toBe("pending");
  });

  it("draws a diff, and refuses one that is not made of strings (the agent's content is hostile)", () => {
    show(item({ content: [{ type: "diff", path: "/w/a.txt", oldText: "one\n", newText: "two\n" }] }));
    expect(screen.getByText("/w/a.txt", { exact: false })).toBeTruthy();
    expect(screen.queryByText("malformed diff")).toBeNull();
    show(item({ content: [{ type: "diff", path: "/w/b.txt", newText: 42 } as never] }));
    expect(screen.getByText("malformed diff")).toBeTruthy();
    show(item({ content: [{ type: "content", content: "text" } as never] }));
    expect(screen.getByText("malformed tool content")).toBeTruthy();
  });

  it("embeds the client terminal it names: the command line, how it ended and its output", () => {
    const terminal: TerminalView = {
      terminalId: "term-1",
      command: "npm",
      args: ["test"],
      output: "1 failing\n",
      truncated: true,
      exitStatus: { exitCode: 1 },
      seqs: SeqList.of(5),
    };
    show(item({ content: [{ type: "terminal", terminalId: "term-1" }] }), "live", { "term-1": terminal });
    expect(screen.getByTestId("terminal-command").textContent).toBe("$ npm test");
    expect(screen.getByTestId("terminal-status").textContent).toBe("exit 1");
    expect(screen.getByTestId("terminal-output").textContent).toBe("… (earlier output truncated)\n1 failing\n");
  });

  const asked: ToolCallItem["permission"] = {
    requestSeq: 4,
    requestId: 0,
    options: [{ optionId: "yes", name: "Allow once", kind: "allow_once" }],
  };

  it("a permission still asked points to the card that answers it while the agent runs", () => {
    show(item({ permission: asked }), "live");
    expect(screen.getByTestId("permission-pointer").getAttribute("href")).toBe("#request-4");
  });

  it("once the agent has stopped, a permission never answered says so instead", () => {
    show(item({ permission: asked }), "stopped");
    expect(screen.queryByTestId("permission-pointer")).toBeNull();
    expect(screen.getByTestId("permission-ended").textContent).toBe("not answered: the agent stopped");
  });

  it("names a diff's file once: in the diff's header, not again among the places (issue #35)", () => {
    show(
      item({
        locations: [{ path: "/w/a.txt" }, { path: "/w/other.txt", line: 3 }],
        content: [{ type: "diff", path: "/w/a.txt", oldText: "one\n", newText: "two\n" }],
      }),
    );
    expect(screen.getAllByText("/w/a.txt", { exact: false })).toHaveLength(1);
    expect(screen.getAllByTestId("tool-location").map((l) => l.textContent)).toEqual(["/w/other.txt:3"]);
  });

  it('shows a recorded answer once: the chosen option\'s ✓, no "chose" beside it (issue #35)', () => {
    show(item({ permission: { ...asked, responseSeq: 5, outcome: { outcome: "selected", optionId: "yes" } } }));
    const permission = screen.getByTestId("tool-permission");
    expect(permission.querySelector('[data-chosen="true"]')!.textContent).toBe("✓ Allow once");
    expect(permission.textContent).not.toContain("chose");
    // An answer the agent never offered has no chip to mark: it is named.
    show(item({ permission: { ...asked, responseSeq: 5, outcome: { outcome: "selected", optionId: "maybe" } } }));
    expect(screen.getAllByTestId("tool-permission")[1]!.textContent).toContain("chose maybe");
  });

  it("opens the raw input and output only when asked", () => {
    show(item({ rawInput: { command: "ls -la" }, rawOutput: { exit: 0 } }));
    expect(screen.queryByTestId("raw-json")).toBeNull();
    const details = screen.getByTestId("raw-toggle").parentElement as HTMLDetailsElement;
    details.open = true;
    fireEvent(details, new Event("toggle"));
    expect(screen.getByTestId("raw-json").textContent).toContain("ls -la");
  });
});
