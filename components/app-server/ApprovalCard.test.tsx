import { act, fireEvent, render, screen } from "@testing-library/react";
import { useRef } from "react";
import { describe, expect, it } from "vitest";
import { renderInTab, runningSession } from "@/test/component-kit";
import { INLINE_REQUEST, useRequestShortcuts } from "../answer/shortcuts";
import { ApprovalCard } from "./ApprovalCard";

const COMMAND = "item/commandExecution/requestApproval";

/** The card where the thread shows it: the first waiting request, with the answer keys. */
function Thread({ params, method = COMMAND }: { params: unknown; method?: string }) {
  const root = useRef<HTMLDivElement>(null);
  useRequestShortcuts(root, true);
  return (
    <div ref={root}>
      <section data-testid={INLINE_REQUEST}>
        <ApprovalCard id="req-1" method={method} params={params} shortcuts />
      </section>
    </div>
  );
}

function setup(params: unknown, method?: string) {
  const { store, relay } = runningSession();
  renderInTab(<Thread params={params} method={method} />, store);
  return relay;
}

const decisions = () => screen.getAllByTestId("approval-choice").map((b) => b.dataset.decision);

describe("ApprovalCard (app-server)", () => {
  it("offers the decisions the server lists, in its order, and answers with the one clicked", async () => {
    const relay = setup({ threadId: "t", turnId: "u", itemId: "i", availableDecisions: ["decline", "accept"] });
    expect(decisions()).toEqual(["decline", "accept"]);
    fireEvent.click(screen.getByRole("button", { name: /Accept/ }));
    expect(relay.sent.map((s) => s.frame)).toEqual([{ jsonrpc: "2.0", id: "req-1", result: { decision: "accept" } }]);
    // Until the relay has it, no second answer can go.
    expect(screen.getAllByTestId("approval-choice").every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await act(async () => relay.sent[0]!.ack({ ok: true, seq: 3 }));
    expect(screen.getAllByTestId("approval-choice").some((b) => (b as HTMLButtonElement).disabled)).toBe(false);
  });

  it("the default decisions when the server lists none; keys: r declines, Enter accepts", () => {
    const relay = setup({ threadId: "t", turnId: "u", itemId: "i" });
    expect(decisions()).toEqual(["accept", "acceptForSession", "decline", "cancel"]);
    fireEvent.keyDown(document.body, { key: "r" });
    expect(relay.sent.map((s) => s.frame)).toEqual([{ jsonrpc: "2.0", id: "req-1", result: { decision: "decline" } }]);
    relay.sent[0]!.ack({ ok: true, seq: 3 });
  });

  it("Enter takes the first accept", () => {
    const relay = setup({ threadId: "t", turnId: "u", itemId: "i" });
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(relay.sent.map((s) => s.frame)).toEqual([{ jsonrpc: "2.0", id: "req-1", result: { decision: "accept" } }]);
  });

  it("a permissions request is granted for the turn or the session, or declined with nothing", () => {
    const permissions = { network: { enabled: true } };
    const relay = setup({ permissions }, "item/permissions/requestApproval");
    fireEvent.click(screen.getByRole("button", { name: /Grant for session/ }));
    expect(relay.sent.map((s) => s.frame)).toEqual([
      { jsonrpc: "2.0", id: "req-1", result: { permissions, scope: "session" } },
    ]);
  });

  it("a request it offers no decision for says so, with no button", () => {
    const { store } = runningSession();
    renderInTab(<ApprovalCard id={1} method="item/unknown/requestApproval" params={{}} />, store);
    expect(screen.queryAllByRole("button")).toEqual([]);
    expect(screen.getByText(/answer it by hand/)).toBeTruthy();
  });

  it("needs its tab: outside one it refuses to render rather than answer nowhere", () => {
    expect(() => render(<ApprovalCard id={1} method={COMMAND} params={{}} />)).toThrow(/TabContext/);
  });
});
