import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { agentAsks, renderInTab, runningSession } from "@/test/component-kit";
import { Composer } from "./Composer";

/** The composer with its draft kept as the playground keeps it. */
function Harness() {
  const [draft, setDraft] = useState("");
  return <Composer draft={draft} onDraftChange={setDraft} />;
}

const composer = () => screen.getByTestId<HTMLTextAreaElement>("composer");
const send = () => screen.getByTestId<HTMLButtonElement>("send-frame");

describe("Composer", () => {
  it("sends a JSON object parsed and anything else verbatim, and says the seq it went out as", async () => {
    const { store, relay } = runningSession();
    renderInTab(<Harness />, store);
    expect(send().disabled).toBe(true);
    fireEvent.change(composer(), { target: { value: '{ "jsonrpc": "2.0", "id": 5, "method": "x/y" }' } });
    fireEvent.click(send());
    await waitFor(() => expect(relay.sent).toHaveLength(1));
    expect(relay.sent[0]!.frame).toEqual({ jsonrpc: "2.0", id: 5, method: "x/y" });
    // Sending until the relay acks: a second click sends nothing.
    expect(send().disabled).toBe(true);
    await act(async () => relay.sent[0]!.ack({ ok: true, seq: 12 }));
    expect(screen.getByTestId("composer-sent").textContent).toBe("sent as seq 12");
    // The id it sent is taken: the templates go on from the next.
    expect(screen.getByText("next id 6")).toBeTruthy();
    // Malformed frames are what the composer is for: they go out as typed.
    fireEvent.change(composer(), { target: { value: '{"jsonrpc": "2.0", "id": ' } });
    fireEvent.click(send());
    await waitFor(() => expect(relay.sent).toHaveLength(2));
    expect(relay.sent[1]!.frame).toBe('{"jsonrpc": "2.0", "id": ');
  });

  it("sends on Ctrl+Enter, and shows the relay's refusal as an alert", async () => {
    const { store, relay } = runningSession();
    renderInTab(<Harness />, store);
    fireEvent.change(composer(), { target: { value: "[]" } });
    fireEvent.keyDown(composer(), { key: "Enter" });
    expect(relay.sent).toHaveLength(0);
    fireEvent.keyDown(composer(), { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(relay.sent).toHaveLength(1));
    await act(async () =>
      relay.sent[0]!.ack({ ok: false, error: { code: "no_agent", message: "no agent is running" } }),
    );
    expect(screen.getByRole("alert").textContent).toBe("no agent is running");
    expect(screen.queryByTestId("composer-sent")).toBeNull();
    // The draft stays, to fix and send again.
    expect(composer().value).toBe("[]");
  });

  it("fills templates with the next id, and answers the oldest waiting request", () => {
    const { store, relay } = runningSession();
    renderInTab(<Harness />, store);
    const response = screen.getByTestId<HTMLButtonElement>("template-response");
    expect(response.disabled).toBe(true);
    fireEvent.click(screen.getByTestId("template-initialize"));
    expect(JSON.parse(composer().value)).toMatchObject({ jsonrpc: "2.0", id: 1, method: "initialize" });
    fireEvent.click(screen.getByTestId("template-session-new"));
    // The running agent's folder, not the relay's.
    expect(JSON.parse(composer().value)).toMatchObject({ id: 1, method: "session/new", params: { cwd: "/w" } });
    act(() => {
      agentAsks(store, relay, {
        id: 9,
        method: "session/request_permission",
        params: {
          sessionId: "s1",
          toolCall: { toolCallId: "t1" },
          options: [{ optionId: "ok", name: "OK", kind: "allow_once" }],
        },
      });
    });
    expect(response.disabled).toBe(false);
    expect(response.title).toBe("answer session/request_permission (id 9)");
    fireEvent.click(response);
    expect(JSON.parse(composer().value)).toEqual({
      jsonrpc: "2.0",
      id: 9,
      result: { outcome: { outcome: "selected", optionId: "ok" } },
    });
  });
});
