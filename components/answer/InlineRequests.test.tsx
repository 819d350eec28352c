import { fireEvent, screen, within } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { agentAsks, renderInTab, runningSession, withoutLayout } from "@/test/component-kit";
import { InlineRequests, requestSessionId } from "./InlineRequests";
import { KEYS_HINT } from "./shortcuts";

const ask = (id: number, title: string) => ({
  id,
  method: "session/request_permission",
  params: {
    sessionId: "s1",
    toolCall: { toolCallId: `t${id}`, title, kind: "edit", status: "pending" },
    options: [
      { optionId: "yes", name: "Allow once", kind: "allow_once" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
    ],
  },
});

beforeAll(withoutLayout);

describe("InlineRequests", () => {
  it("shows one card per request, and the keys hint only on the first", () => {
    const { store, relay } = runningSession();
    const a = agentAsks(store, relay, ask(7, "Write notes.md"));
    const b = agentAsks(store, relay, ask(8, "Delete old.md"));
    renderInTab(<InlineRequests requests={[a, b]} />, store);
    const cards = screen.getAllByTestId("inline-request");
    expect(cards.map((c) => c.id)).toEqual([`request-${a.seq}`, `request-${b.seq}`]);
    expect(cards[0]!.getAttribute("aria-label")).toBe("The agent asks: session/request_permission");
    expect(within(cards[0]!).getByText("Write notes.md")).toBeTruthy();
    expect(within(cards[1]!).getByText("Delete old.md")).toBeTruthy();
    expect(screen.getAllByTestId("keys-hint")).toHaveLength(1);
    expect(within(cards[0]!).getByTestId("keys-hint").textContent).toBe(KEYS_HINT);
  });

  it("a card's answer button answers its own request", () => {
    const { store, relay } = runningSession();
    const a = agentAsks(store, relay, ask(7, "Write notes.md"));
    const b = agentAsks(store, relay, ask(8, "Delete old.md"));
    renderInTab(<InlineRequests requests={[a, b]} />, store);
    const second = screen.getAllByTestId("inline-request")[1]!;
    fireEvent.click(within(second).getByRole("button", { name: /Reject/ }));
    expect(relay.sent.map((s) => s.frame)).toEqual([
      { jsonrpc: "2.0", id: 8, result: { outcome: { outcome: "selected", optionId: "no" } } },
    ]);
  });

  it("requestSessionId reads params.sessionId, undefined when absent", () => {
    const { store, relay } = runningSession();
    expect(requestSessionId(agentAsks(store, relay, ask(7, "x")))).toBe("s1");
    expect(requestSessionId(agentAsks(store, relay, { id: 9, method: "fs/read_text_file", params: {} }))).toBe(
      undefined,
    );
  });
});
