import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { useRef, useState } from "react";
import { beforeAll, describe, expect, it } from "vitest";
import { agentAsks, renderInTab, runningSession, withoutLayout } from "@/test/component-kit";
import { InlineRequests } from "./answer/InlineRequests";
import { PendingRequests, useInlineSeqs } from "./PendingRequests";
import { useSession } from "./state/use-session";

const ASK = {
  id: 7,
  method: "session/request_permission",
  params: {
    sessionId: "s1",
    toolCall: { toolCallId: "t1", title: "Write notes.md", kind: "edit", status: "pending" },
    options: [
      { optionId: "yes", name: "Allow once", kind: "allow_once" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
    ],
  },
};

let switchView: (v: "session" | "frames") => void = () => undefined;

/** The playground's shape: a conversation that shows the cards (Session view) or not (Frames), and the dock. */
function Page({ drafts }: { drafts: string[] }) {
  const pending = useSession((s) => s.pending);
  const [view, setView] = useState<"session" | "frames">("session");
  switchView = setView;
  const root = useRef<HTMLDivElement>(null);
  const shown = useInlineSeqs(root);
  return (
    <div ref={root}>
      {view === "session" ? <InlineRequests requests={pending} /> : <p>frames</p>}
      <PendingRequests onPick={(d) => drafts.push(d)} shownInline={shown} />
    </div>
  );
}

beforeAll(withoutLayout);

describe("PendingRequests: one card per question, a pointer elsewhere", () => {
  it("points to the conversation's card, and the pointer focuses its answer", async () => {
    const { store, relay } = runningSession();
    agentAsks(store, relay, ASK);
    const drafts: string[] = [];
    renderInTab(<Page drafts={drafts} />, store);
    await waitFor(() => expect(screen.getAllByTestId("waiting-pointer")).toHaveLength(1));
    // The question's answer buttons exist once: on the conversation's card.
    expect(screen.getAllByTestId("inline-request")).toHaveLength(1);
    expect(screen.queryAllByTestId("pending-card")).toHaveLength(0);
    expect(screen.getAllByRole("button", { name: /Allow once/ })).toHaveLength(1);

    fireEvent.click(screen.getByTestId("waiting-goto"));
    const card = screen.getByTestId("inline-request");
    expect(card.contains(document.activeElement)).toBe(true);
    expect(document.activeElement?.textContent).toMatch(/Allow once/);

    // Answering by hand drafts the result for the Raw panel.
    fireEvent.click(screen.getByTestId("pending-request"));
    expect(JSON.parse(drafts[0]!)).toMatchObject({ id: 7 });
  });

  it("shows the card itself where the view has none, and the pointer again when it has", async () => {
    const { store, relay } = runningSession();
    agentAsks(store, relay, ASK);
    renderInTab(<Page drafts={[]} />, store);
    await waitFor(() => expect(screen.getAllByTestId("waiting-pointer")).toHaveLength(1));
    act(() => switchView("frames"));
    await waitFor(() => expect(screen.getAllByTestId("pending-card")).toHaveLength(1));
    expect(screen.queryAllByTestId("waiting-pointer")).toHaveLength(0);
    expect(screen.getAllByRole("button", { name: /Allow once/ })).toHaveLength(1);
    act(() => switchView("session"));
    await waitFor(() => expect(screen.queryAllByTestId("pending-card")).toHaveLength(0));
    expect(screen.getAllByTestId("waiting-pointer")).toHaveLength(1);
  });

  it("shows nothing while nothing waits", () => {
    const { store } = runningSession();
    renderInTab(<Page drafts={[]} />, store);
    expect(screen.queryAllByTestId("waiting-pointer")).toHaveLength(0);
    expect(screen.queryAllByTestId("pending-card")).toHaveLength(0);
    expect(screen.getByTestId("waiting-dock").textContent).toBe("");
  });
});
