import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { describePending } from "@/lib/features/answers/agent-answers";
import { agentAsks, renderInTab, runningSession } from "@/test/component-kit";
import { ElicitationCard } from "./ElicitationCard";

const FORM = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", minLength: 1 },
    age: { type: "integer", minimum: 0 },
    subscribe: { type: "boolean" },
  },
  required: ["name"],
};

function setup(params: object) {
  const { store, relay } = runningSession();
  const frame = agentAsks(store, relay, {
    id: 3,
    method: "elicitation/create",
    params: { sessionId: "s1", ...params },
  });
  const view = describePending(frame);
  if (view.kind !== "elicitation") throw new Error(`not an elicitation: ${view.kind}`);
  const { container } = renderInTab(<ElicitationCard frame={frame} view={view} />, store);
  const field = (path: string) => container.querySelector<HTMLInputElement>(`input[data-path="${path}"]`)!;
  return { relay, field };
}

const accept = () => screen.getByTestId<HTMLButtonElement>("elicitation-accept");

describe("ElicitationCard", () => {
  it("a form from the requested schema: Accept waits for a valid answer, then sends what was typed", async () => {
    const { relay, field } = setup({ mode: "form", message: "Who are you?", requestedSchema: FORM });
    expect(screen.getByText("Who are you?")).toBeTruthy();
    // The required name is empty: only "Accept anyway" sends it as it is.
    expect(accept().disabled).toBe(true);
    expect(screen.getByRole("button", { name: "Accept anyway" })).toBeTruthy();
    fireEvent.change(field("name"), { target: { value: "Ada" } });
    expect(accept().disabled).toBe(false);
    fireEvent.click(accept());
    expect(relay.sent.map((s) => s.frame)).toEqual([
      { jsonrpc: "2.0", id: 3, result: { action: "accept", content: { name: "Ada" } } },
    ]);
    expect(accept().disabled).toBe(true);
    await act(async () => relay.sent[0]!.ack({ ok: true, seq: 2 }));
    expect(accept().disabled).toBe(false);
  });

  it("a number that is not one keeps Accept off", () => {
    const { field } = setup({ mode: "form", requestedSchema: FORM });
    fireEvent.change(field("name"), { target: { value: "Ada" } });
    fireEvent.click(screen.getByRole("button", { name: "+ age" }));
    fireEvent.change(field("age"), { target: { value: "twelve" } });
    expect(accept().disabled).toBe(true);
    fireEvent.change(field("age"), { target: { value: "12" } });
    expect(accept().disabled).toBe(false);
  });

  it("Decline and Cancel answer without content", () => {
    const { relay } = setup({ mode: "form", requestedSchema: FORM });
    fireEvent.click(screen.getByTestId("elicitation-decline"));
    expect(relay.sent.map((s) => s.frame)).toEqual([{ jsonrpc: "2.0", id: 3, result: { action: "decline" } }]);
  });

  it("URL mode shows an http(s) link, never opened by itself", () => {
    setup({ mode: "url", message: "Sign in", url: "https://example.com/auth", elicitationId: "e1" });
    const link = screen.getByTestId<HTMLAnchorElement>("elicitation-url");
    expect(link.href).toBe("https://example.com/auth");
    expect(link.rel).toBe("noopener noreferrer");
    expect(accept().disabled).toBe(false);
  });

  it("a URL of another scheme is no link, says why, and cannot be accepted", () => {
    setup({ mode: "url", message: "Click", url: "javascript:alert(1)", elicitationId: "e1" });
    expect(screen.queryByTestId("elicitation-url")).toBeNull();
    expect(screen.getByTestId("elicitation-problem").textContent).toMatch(/Not shown as a link/);
    expect(accept().disabled).toBe(true);
  });
});
