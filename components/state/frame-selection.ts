"use client";
/**
 * The frame selected in a tab: one per tab (its ui key "inspector.selection"), shared by the
 * conversation views, the waterfall and the frame inspector, so a frame chosen in one is the one
 * the next shows. A restarted log reuses seqs: the selection is tied to its log's epoch.
 */
import { useCallback } from "react";
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
