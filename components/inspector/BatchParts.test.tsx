import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { FrameIndex } from "@/lib/folds/frame-index";
import { FrameWindow } from "@/lib/folds/frame-log";
import type { Frame } from "@/lib/protocol/frame";
import { FrameSequencer } from "@/lib/protocol/frame-sequencer";
import { BatchParts } from "./BatchParts";
import { FrameRow } from "./FrameRow";

/** An ACP v2 log: a batch of two requests and a notification, one answered by a batch reply, one alone. */
function v2Log() {
  const s = new FrameSequencer(undefined, "acp-v2");
  const index = new FrameIndex();
  const frames: Frame[] = [];
  const add = (dir: "to-agent" | "from-agent", m: unknown) => {
    const f = s.line(dir, JSON.stringify(m));
    frames.push(f);
    index.add(f, "acp-v2");
    return f;
  };
  const ask = add("to-agent", [
    { jsonrpc: "2.0", id: "a", method: "session/list", params: {} },
    { jsonrpc: "2.0", method: "_x/note", params: {} },
    { jsonrpc: "2.0", id: "b", method: "session/list", params: {} },
  ]);
  const reply = add("from-agent", [{ jsonrpc: "2.0", id: "a", result: { sessions: [] } }]);
  return { index, ask, reply, window: new FrameWindow(frames, 0, frames.length) };
}

describe("a v2 batch in the Frames view", () => {
  it("its row reads as one batch of N, not as an invalid line", () => {
    const { ask, index } = v2Log();
    render(
      <FrameRow
        frame={ask}
        selected={false}
        checks={[]}
        batch={index.batchOf(ask.seq)!.parts.length}
        onSelect={() => {}}
        top={0}
      />,
    );
    const row = screen.getByTestId("frame-row");
    expect(row.dataset.batch).toBe("3");
    expect(row.textContent).toContain("batch of 3");
    expect(row.textContent).not.toContain("not part of");
  });

  it("its detail lists the parts with their paired replies, and jumps to a reply", () => {
    const { ask, reply, index, window } = v2Log();
    const onJump = vi.fn();
    render(<BatchParts frame={ask} index={index} frames={window} onJump={onJump} />);
    const parts = screen.getAllByTestId("batch-part");
    expect(parts.map((p) => [p.dataset.kind, p.dataset.method])).toEqual([
      ["request", "session/list"],
      ["notification", "_x/note"],
      ["request", "session/list"],
    ]);
    expect(within(parts[0]!).getByTestId("batch-pair").textContent).toBe(`answered by #${reply.seq} part 1`);
    expect(within(parts[1]!).queryByTestId("batch-pair")).toBeNull();
    expect(parts[2]!.textContent).toContain("no answer yet");
    fireEvent.click(within(parts[0]!).getByTestId("batch-pair"));
    expect(onJump).toHaveBeenCalledWith(reply.seq);
  });

  it("the reply batch points back at the request it answers", () => {
    const { ask, reply, index, window } = v2Log();
    render(<BatchParts frame={reply} index={index} frames={window} onJump={() => {}} />);
    expect(screen.getByTestId("batch-pair").textContent).toBe(`answers #${ask.seq} part 1`);
  });
});
