import { fireEvent, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { SeqList } from "@/lib/folds/session-view";
import { renderInTab, runningSession } from "@/test/component-kit";
import type { Highlight } from "../session-view/highlight";
import { useItemSelection, type FromFrames } from "./frame-selection";

const ITEMS: Record<string, FromFrames> = { a: { seqs: SeqList.of(4, 5, 9) }, none: { seqs: SeqList.of() } };

/** A view of two items: a click selects one, a second button shows its frames. */
function View(props: { epoch: number; onHighlight: (h: Highlight) => void; onShowFrames?: (seq: number) => void }) {
  const { selectedSeq, select, showFrames } = useItemSelection(props.epoch, props.onHighlight, props.onShowFrames);
  return (
    <div data-testid="view" data-selected={selectedSeq ?? "none"}>
      {Object.entries(ITEMS).map(([id, item]) => (
        <span key={id}>
          <button type="button" data-testid={`select-${id}`} onClick={() => select(item)} />
          <button type="button" data-testid={`frames-${id}`} onClick={() => showFrames(item)} />
        </span>
      ))}
    </div>
  );
}

describe("useItemSelection", () => {
  it("selects an item's first frame and highlights all its frames; Show frames goes there too", () => {
    const { store } = runningSession();
    const onHighlight = vi.fn<(h: Highlight) => void>();
    const onShowFrames = vi.fn<(seq: number) => void>();
    renderInTab(<View epoch={2} onHighlight={onHighlight} onShowFrames={onShowFrames} />, store);
    fireEvent.click(screen.getByTestId("select-a"));
    expect(screen.getByTestId("view").dataset.selected).toBe("4");
    expect(onHighlight).toHaveBeenCalledOnce();
    expect(onHighlight.mock.calls[0]![0].epoch).toBe(2);
    expect([...onHighlight.mock.calls[0]![0].seqs]).toEqual([4, 5, 9]);
    expect(onShowFrames).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("frames-a"));
    expect(onShowFrames).toHaveBeenCalledWith(4);
  });

  it("does nothing for an item without frames, and forgets a selection of an earlier log", () => {
    const { store } = runningSession();
    const onHighlight = vi.fn<(h: Highlight) => void>();
    const onShowFrames = vi.fn<(seq: number) => void>();
    /** The view over a log that restarts (a new epoch) on a click. */
    function Restarting() {
      const [epoch, setEpoch] = useState(1);
      return (
        <>
          <View epoch={epoch} onHighlight={onHighlight} onShowFrames={onShowFrames} />
          <button type="button" data-testid="restart" onClick={() => setEpoch(epoch + 1)} />
        </>
      );
    }
    renderInTab(<Restarting />, store);
    fireEvent.click(screen.getByTestId("frames-none"));
    expect(onHighlight).not.toHaveBeenCalled();
    expect(onShowFrames).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("select-a"));
    expect(screen.getByTestId("view").dataset.selected).toBe("4");
    fireEvent.click(screen.getByTestId("restart"));
    expect(screen.getByTestId("view").dataset.selected).toBe("none");
  });
});
