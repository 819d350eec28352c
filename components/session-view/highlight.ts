import type { SeqList } from "@/lib/folds/session-view";

/**
 * The source frames of the item last clicked in the session view, kept per tab
 * ("highlightSeqs") and shown highlighted in the Frames view.
 */
export interface Highlight {
  /** The log epoch the seqs belong to: a restarted log makes them meaningless. */
  epoch: number;
  seqs: SeqList;
}
