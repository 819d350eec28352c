import { act, fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { AGENT, renderInTab, runningSession } from "@/test/component-kit";
import { APP_SERVER_SESSION, AS_THREAD } from "@/test/fixtures/codex-captures";
import { ThreadView } from "./ThreadView";

describe("ThreadView over the snapshot's one conversation", () => {
  it("shows the threads the store folded for an app-server agent, as frames arrive", async () => {
    const { store, relay } = runningSession({ ...AGENT, profile: "codex", protocol: "codex-app-server" });
    renderInTab(<ThreadView onHighlight={() => {}} onShowFrames={() => {}} />, store);
    const upTo = APP_SERVER_SESSION.findIndex(([, m]) => "method" in m && m.method === "item/agentMessage/delta");
    act(() =>
      relay.fire(
        "frames",
        APP_SERVER_SESSION.slice(0, upTo + 1).map(([dir, m]) => relay.frame(dir, m)),
      ),
    );
    const conversation = store.getSnapshot().conversation;
    expect(conversation.protocol).toBe("codex-app-server");
    expect(await screen.findByText("Running it.")).toBeTruthy();
    expect(screen.getByTestId("thread-view").dataset.threadId).toBe(AS_THREAD);
  });
});

describe("ThreadView's items and their frames", () => {
  it("a click on an item selects and highlights its frames; its #seq link shows them in the Frames view", async () => {
    const { store, relay } = runningSession({ ...AGENT, profile: "codex", protocol: "codex-app-server" });
    const onHighlight = vi.fn();
    const onShowFrames = vi.fn();
    renderInTab(<ThreadView onHighlight={onHighlight} onShowFrames={onShowFrames} />, store);
    act(() =>
      relay.fire(
        "frames",
        APP_SERVER_SESSION.map(([dir, m]) => relay.frame(dir, m)),
      ),
    );
    const item = (await screen.findByText("Running it.")).closest<HTMLElement>('[data-testid="as-item"]')!;
    const first = Number(item.dataset.seq);
    expect(item.dataset.highlighted).toBe("false");
    fireEvent.click(item);
    expect(onHighlight).toHaveBeenCalledOnce();
    expect(onHighlight.mock.calls[0]![0].seqs.first).toBe(first);
    const selected = () => screen.getByText("Running it.").closest<HTMLElement>('[data-testid="as-item"]')!;
    expect(selected().dataset.highlighted).toBe("true");
    fireEvent.click(within(selected()).getByTestId("show-frames"));
    expect(onShowFrames).toHaveBeenCalledWith(first);
  });
});

describe("ThreadView before an app-server agent's frames", () => {
  it("shows no thread while the snapshot holds another protocol's conversation", () => {
    const { store, relay } = runningSession();
    act(() =>
      relay.fire("frames", [
        relay.frame("to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }),
      ]),
    );
    renderInTab(<ThreadView onHighlight={() => {}} onShowFrames={() => {}} />, store);
    expect(store.getSnapshot().conversation.protocol).toBe("acp");
    expect(screen.queryByTestId("as-item")).toBeNull();
  });
});
