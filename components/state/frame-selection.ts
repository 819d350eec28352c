"use client";
/**
 * The frame selected in a tab: one per tab (its ui key "inspector.selection"), shared by the
 * conversation views, the waterfall and the frame inspector, so a frame chosen in one is the one
 * the next shows. A restarted log reuses seqs: the selection is tied to its log's epoch.
 */
import { useCallback } from "react";
import type { SeqList } from "@/lib/folds/session-view";
import type { Highlight } from "../session-view/highlight";
import { useTabState } from "./use-session";

export interface Selection {
  epoch: number;
  seq: number;
}

/** The selected frame's seq in the log of `epoch` (undefined: none, or one of an earlier log), and how to select one. */
export function useFrameSelection(epoch: number): [number | undefined, (seq: number | undefined) => void] {
  const [selection, setSelection] = useTabState<Selection | undefined>("inspector.selection", undefined);
  const select = useCallback(
    (seq: number | undefined) => setSelection(seq === undefined ? undefined : { epoch, seq }),
    [epoch, setSelection],
  );
  return [selection?.epoch === epoch ? selection.seq : undefined, select];
}

/** What a view shows decoded from frames (an item, a bar): it keeps the seqs of its frames. */
export interface FromFrames {
  seqs: SeqList;
}

/**
 * A view's clicks on what it decoded: `select` selects its first frame and highlights all of them
 * (the Frames view shows them), `showFrames` does so and switches to the Frames view there.
 */
export function useItemSelection(
  epoch: number,
  onHighlight: (highlight: Highlight) => void,
  onShowFrames?: (seq: number) => void,
): { selectedSeq: number | undefined; select: (item: FromFrames) => void; showFrames: (item: FromFrames) => void } {
  const [selectedSeq, chooseFrame] = useFrameSelection(epoch);
  const select = useCallback(
    (item: FromFrames) => {
      const seq = item.seqs.first;
      if (seq === undefined) return;
      chooseFrame(seq);
      onHighlight({ epoch, seqs: item.seqs });
    },
    [epoch, chooseFrame, onHighlight],
  );
  const showFrames = useCallback(
    (item: FromFrames) => {
      select(item);
      if (item.seqs.first !== undefined) onShowFrames?.(item.seqs.first);
    },
    [select, onShowFrames],
  );
  return { selectedSeq, select, showFrames };
}
