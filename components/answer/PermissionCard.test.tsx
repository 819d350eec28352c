import { act, fireEvent, screen, within } from "@testing-library/react";
import { useRef } from "react";
import { describe, expect, it } from "vitest";
import { useSession } from "../state/use-session";
import { agentAsks, AGENT, renderInTab, runningSession, type FakeRelay } from "@/test/component-kit";
import { InlineRequests } from "./InlineRequests";
import { RequestBody } from "./PendingCard";
import { useRequestShortcuts } from "./shortcuts";

const ASK = {
  id: 7,
  method: "session/request_permission",
  params: {
    sessionId: "s1",
    toolCall: { toolCallId: "t1", title: "Write notes.md", kind: "edit", status: "pending" },
    options: [
      { optionId: "yes", name: "Allow once", kind: "allow_once" },
      { optionId: "always", name: "Allow always", kind: "allow_always" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
    ],
  },
};

/** The conversation's requests as the Session view shows them: the store's pending ones, keys on. */
function Conversation() {
  const pending = useSession((s) => s.pending);
  const root = useRef<HTMLDivElement>(null);
  useRequestShortcuts(root, true, pending[0]?.seq);
  return (
    <div ref={root}>
      <input aria-label="prompt" />
      <InlineRequests requests={pending} />
    </div>
  );
}

function setup(agent = AGENT, ask: object = ASK) {
  const { store, relay } = runningSession(agent);
  agentAsks(store, relay, ask);
  renderInTab(<Conversation />, store);
  return { store, relay };
}

const options = () => screen.getAllByTestId("permission-option");
const answered = (relay: FakeRelay) => relay.sent.map((s) => s.frame);

describe("PermissionCard", () => {
  it("answers with the option clicked; every button waits, disabled, until the relay takes it", async () => {
    const { relay } = setup();
    expect(screen.getByText("Write notes.md")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /Allow once/ }));
    expect(answered(relay)).toEqual([
      { jsonrpc: "2.0", id: 7, result: { outcome: { outcome: "selected", optionId: "yes" } } },
    ]);
    const card = screen.getByTestId("inline-request");
    for (const b of within(card).getAllByRole("button")) expect((b as HTMLButtonElement).disabled).toBe(true);
    await act(async () => relay.sent[0]!.ack({ ok: true, seq: 2 }));
    for (const b of within(card).getAllByRole("button")) expect((b as HTMLButtonElement).disabled).toBe(false);
  });

  it("Cancel answers cancelled", () => {
    const { relay } = setup();
    fireEvent.click(screen.getByTestId("permission-cancel"));
    expect(answered(relay)).toEqual([{ jsonrpc: "2.0", id: 7, result: { outcome: { outcome: "cancelled" } } }]);
  });

  it("keys answer the first card: r rejects, Enter takes the primary; none while typing in a field", () => {
    const { relay } = setup();
    const prompt = screen.getByLabelText("prompt");
    fireEvent.keyDown(prompt, { key: "r" });
    fireEvent.keyDown(prompt, { key: "Enter" });
    expect(answered(relay)).toEqual([]);
    fireEvent.keyDown(document.body, { key: "r", ctrlKey: true });
    expect(answered(relay)).toEqual([]);
    fireEvent.keyDown(document.body, { key: "r" });
    expect(answered(relay)).toEqual([
      { jsonrpc: "2.0", id: 7, result: { outcome: { outcome: "selected", optionId: "no" } } },
    ]);
    relay.sent[0]!.ack({ ok: true, seq: 2 });
  });

  it("Enter answers with the primary option, allow once", () => {
    const { relay } = setup();
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(answered(relay)).toEqual([
      { jsonrpc: "2.0", id: 7, result: { outcome: { outcome: "selected", optionId: "yes" } } },
    ]);
  });

  it("a refused answer says why on the card, and its buttons work again", async () => {
    const { relay } = setup();
    fireEvent.click(screen.getByRole("button", { name: /Reject/ }));
    await act(async () => relay.sent[0]!.ack({ ok: false, error: { code: "not_running", message: "no agent" } }));
    expect(screen.getByTestId("inline-request").textContent).toContain("no agent");
    expect(options().every((b) => !(b as HTMLButtonElement).disabled)).toBe(true);
  });

  it("Gemini in an untrusted folder: allow always goes last, saying why", () => {
    setup({ ...AGENT, profile: "gemini", command: "gemini", args: ["--acp"] });
    expect(options().map((b) => b.dataset.optionId)).toEqual(["yes", "no", "always"]);
    expect(options()[2]!.dataset.refused).toBe("true");
    expect(screen.getByTestId("untrusted-note")).toBeTruthy();
  });

  it("the agent stops: its request leaves the conversation, and no key answers it", () => {
    const { relay } = setup();
    expect(screen.queryByTestId("inline-request")).toBeTruthy();
    act(() => relay.fire("agent:exit", { code: 0, signal: null }));
    expect(screen.queryByTestId("inline-request")).toBeNull();
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(answered(relay)).toEqual([]);
  });
});

describe("PermissionCard on ACP v2: the request's subject", () => {
  const V2 = { ...AGENT, protocol: "acp-v2" as const };
  const v2Ask = (extra: object) => ({
    id: 9,
    method: "session/request_permission",
    params: {
      sessionId: "s1",
      options: [
        { optionId: "yes", name: "Allow once", kind: "allow_once" },
        { optionId: "no", name: "Reject", kind: "reject_once" },
      ],
      ...extra,
    },
  });
  const subject = () => screen.getByTestId("permission-subject");

  it("a tool_call subject shows its tool call, under the prompt's own title and description", () => {
    setup(
      V2,
      v2Ask({
        title: "Edit the config?",
        description: "It rewrites one line.",
        subject: {
          type: "tool_call",
          toolCall: {
            toolCallId: "t9",
            title: "Edit config.toml",
            kind: "edit",
            locations: [{ path: "/w/config.toml" }],
          },
        },
      }),
    );
    expect(screen.getByTestId("permission-title").textContent).toBe("Edit the config?");
    expect(screen.getByText("It rewrites one line.")).toBeTruthy();
    expect(subject().dataset.subjectType).toBe("tool_call");
    expect(within(subject()).getByText("Edit config.toml")).toBeTruthy();
    expect(within(subject()).getByText("/w/config.toml")).toBeTruthy();
  });

  it("a command subject shows the command, where it runs and what it belongs to", () => {
    setup(
      V2,
      v2Ask({
        title: "Run the tests?",
        subject: { type: "command", command: "npm test", cwd: "/w", toolCallId: "t3", terminalId: "term-1" },
      }),
    );
    expect(subject().dataset.subjectType).toBe("command");
    expect(subject().textContent).toContain("$ npm test");
    expect(subject().textContent).toContain("in /w · tool call t3 · terminal term-1");
    // No tool call is invented for it.
    expect(screen.queryByTestId("answer-tool-call")).toBeNull();
  });

  it("a subject of a kind it does not know is shown as sent; the buttons still answer", () => {
    const { relay } = setup(V2, v2Ask({ title: "Open the door?", subject: { type: "_acme/door", door: "front" } }));
    expect(subject().dataset.subjectType).toBe("_acme/door");
    expect(subject().textContent).toContain('"door": "front"');
    fireEvent.click(screen.getByRole("button", { name: /Reject/ }));
    expect(answered(relay)).toMatchObject([{ id: 9, result: { outcome: { outcome: "selected", optionId: "no" } } }]);
  });

  it("no subject: the title alone, no empty tool call", () => {
    setup(V2, v2Ask({ title: "Proceed?" }));
    expect(screen.getByTestId("permission-title").textContent).toBe("Proceed?");
    expect(screen.queryByTestId("permission-subject")).toBeNull();
    expect(screen.queryByText("(untitled tool call)")).toBeNull();
  });
});

describe("PermissionCard's tool call diff: said once", () => {
  const WITH_DIFF = {
    ...ASK,
    params: {
      ...ASK.params,
      toolCall: {
        ...ASK.params.toolCall,
        locations: [{ path: "/w/notes.md" }],
        content: [{ type: "diff", path: "/w/notes.md", oldText: null, newText: "hi\n" }],
      },
    },
  };

  it("in the Session view, points to the tool call card above, which shows the diff", () => {
    setup(AGENT, WITH_DIFF);
    const card = screen.getByTestId("inline-request");
    expect(within(card).getByText("Write notes.md")).toBeTruthy();
    expect(within(card).queryByTestId("tool-diff")).toBeNull();
    expect(within(card).getByTestId("tool-content-above").textContent).toBe(
      "tool call t1: its diff in the tool call card above ↑",
    );
  });

  it("standing alone (the prompt dock in the other views), shows the diff", () => {
    const { store, relay } = runningSession();
    const frame = agentAsks(store, relay, WITH_DIFF);
    renderInTab(<RequestBody frame={frame} />, store);
    expect(screen.getByTestId("tool-diff")).toBeTruthy();
    expect(screen.queryByTestId("tool-content-above")).toBeNull();
  });
});
