import { fireEvent, screen } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { agentAsks, renderInTab, runningSession, withoutLayout } from "@/test/component-kit";
import { PendingCard } from "./PendingCard";

const ASK = {
  id: 7,
  method: "session/request_permission",
  params: {
    sessionId: "s1",
    toolCall: { toolCallId: "t1", title: "Write notes.md", kind: "edit", status: "pending" },
    options: [{ optionId: "yes", name: "Allow once", kind: "allow_once" }],
  },
};

beforeAll(withoutLayout);

function setup() {
  const { store, relay } = runningSession();
  const frame = agentAsks(store, relay, ASK);
  const drafts: string[] = [];
  renderInTab(<PendingCard frame={frame} now={frame.ts + 5000} onDraft={(d) => drafts.push(d)} />, store);
  return { frame, drafts, relay };
}

describe("PendingCard", () => {
  it("shows the request's method, id, seq and how long it has waited, with its card", () => {
    const { frame } = setup();
    const head = screen.getByTestId("pending-request");
    expect(head.textContent).toContain("session/request_permission");
    expect(head.textContent).toContain(`seq ${frame.seq}`);
    expect(screen.getByTestId("pending-age").textContent).toMatch(/^waiting 5/);
    expect(screen.getByText("Write notes.md")).toBeTruthy();
  });

  it("drafts a result (header or result…) and an error for the request's id", () => {
    const { drafts } = setup();
    fireEvent.click(screen.getByTestId("pending-request"));
    fireEvent.click(screen.getByTestId("pending-draft-result"));
    fireEvent.click(screen.getByTestId("pending-draft-error"));
    const [head, result, error] = drafts.map((d) => JSON.parse(d) as Record<string, unknown>);
    expect(head).toMatchObject({ id: 7 });
    expect(head).toHaveProperty("result");
    expect(result).toEqual(head);
    expect(error).toMatchObject({ id: 7 });
    expect(error).toHaveProperty("error");
  });

  it("'show in the conversation' presses the Session view tab when it is not selected", () => {
    setup();
    let pressed = 0;
    const tab = document.createElement("button");
    tab.dataset.testid = "view-session";
    tab.setAttribute("aria-selected", "false");
    tab.addEventListener("click", () => pressed++);
    document.body.append(tab);
    fireEvent.click(screen.getByTestId("pending-show"));
    expect(pressed).toBe(1);
    tab.remove();
  });
});
