import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { AGENT, renderInTab, runningSession, withoutLayout, type FakeRelay } from "@/test/component-kit";
import type { SessionStore } from "../state/session-store";
import { ViewPane } from "../ViewPane";
import { PromptBox } from "./PromptBox";

/** Frames arrive from the relay (both ways, as it echoes what the page sent). */
const arrive = (relay: FakeRelay, ...frames: ReadonlyArray<readonly ["to-agent" | "from-agent", object]>) =>
  act(() =>
    relay.fire(
      "frames",
      frames.map(([dir, m]) => relay.frame(dir, m)),
    ),
  );

const type = (text: string) => {
  fireEvent.change(screen.getByTestId("prompt-input"), { target: { value: text } });
  fireEvent.keyDown(screen.getByTestId("prompt-input"), { key: "Enter" });
};

const sent = (relay: FakeRelay) => relay.sent.map((s) => s.frame as { method?: string; params?: unknown });

function setup(protocol: "acp-v2" | "codex-app-server", sessionId: string): { store: SessionStore; relay: FakeRelay } {
  const session = runningSession({ ...AGENT, protocol });
  renderInTab(<PromptBox sessionId={sessionId} />, session.store);
  return session;
}

describe("PromptBox over the snapshot's one conversation", () => {
  it("ACP v2: the turn runs past the prompt's receipt, so a second prompt waits for state_update idle", () => {
    const { relay } = setup("acp-v2", "s1");
    const update = (u: object) =>
      ["from-agent", { method: "session/update", params: { sessionId: "s1", update: u } }] as const;
    arrive(
      relay,
      ["to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }],
      ["from-agent", { id: 1, result: { sessionId: "s1" } }],
      ["to-agent", { id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [] } }],
      ["from-agent", { id: 2, result: { messageId: "m1" } }],
      update({ sessionUpdate: "state_update", state: "running" }),
    );
    expect(screen.getByTestId("prompt-cancel")).toBeTruthy();
    type("and then?");
    expect(screen.getByTestId("prompt-queued").textContent).toContain("and then?");
    expect(sent(relay)).toEqual([]);
    arrive(relay, update({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" }));
    expect(screen.queryByTestId("prompt-queued")).toBeNull();
    expect(sent(relay)).toMatchObject([{ method: "session/prompt", params: { sessionId: "s1" } }]);
  });

  it("Codex's app-server: a running turn of the thread opened last takes more input as turn/steer", () => {
    const { relay } = setup("codex-app-server", "t1");
    arrive(
      relay,
      ["to-agent", { id: 1, method: "thread/start", params: { cwd: "/w" } }],
      ["from-agent", { id: 1, result: { thread: { id: "t1" } } }],
      ["to-agent", { id: 2, method: "turn/start", params: { threadId: "t1", input: [] } }],
      ["from-agent", { id: 2, result: { turn: { id: "u1", status: "inProgress", items: [] } } }],
    );
    expect(screen.getByTestId("prompt-send").textContent).toBe("Steer");
    type("also this");
    expect(sent(relay)).toMatchObject([{ method: "turn/steer", params: { threadId: "t1", expectedTurnId: "u1" } }]);
  });
});

describe("one Cancel per running turn", () => {
  beforeAll(withoutLayout);
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  const running = (relay: FakeRelay) =>
    arrive(
      relay,
      ["to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }],
      ["from-agent", { id: 1, result: { sessionId: "s1" } }],
      ["to-agent", { id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [] } }],
      [
        "from-agent",
        { method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk" } } },
      ],
    );

  it("the prompt box's, not the session header's; it says Cancel again once the cancel is sent", async () => {
    const { store, relay } = runningSession();
    renderInTab(
      <>
        <ViewPane />
        <PromptBox sessionId="s1" />
      </>,
      store,
    );
    running(relay);
    // The session view folds frames once per animation frame.
    await screen.findByTestId("session-header");
    expect(screen.queryByTestId("cancel-turn")).toBeNull();
    expect(screen.getAllByRole("button", { name: /^Cancel/ }).map((b) => b.dataset.testid)).toEqual(["prompt-cancel"]);
    fireEvent.click(screen.getByTestId("prompt-cancel"));
    expect(sent(relay)).toMatchObject([{ method: "session/cancel", params: { sessionId: "s1" } }]);
    await act(async () => relay.sent[0]!.ack({ ok: true, seq: 5 }));
    expect(screen.getByTestId("prompt-cancel").textContent).toBe("Cancel again");
  });

  it("the session header's when no prompt box offers it", async () => {
    const { store, relay } = runningSession();
    renderInTab(<ViewPane />, store);
    running(relay);
    expect((await screen.findByTestId("cancel-turn")).textContent).toBe("Cancel turn");
  });
});
