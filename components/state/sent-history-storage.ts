/**
 * What this tab sent, kept in sessionStorage next to its clientId so a reload
 * keeps it (lib/folds/sent-history.ts caps, encodes and validates it). Lives as long
 * as the tab, across agents.
 */
import { appendSent, decodeSentHistory, encodeSentHistory, type SentEntry } from "@/lib/folds/sent-history";

/** Where a tab keeps what it sent, next to its clientId. */
export const sentHistoryKey = (clientIdKey: string) => `${clientIdKey}.sent`;

export class SentHistoryStorage {
  constructor(private readonly clientIdKey: string) {}

  load(): SentEntry[] {
    return decodeSentHistory(sessionStorage.getItem(sentHistoryKey(this.clientIdKey)));
  }

  /** The history with `frame` appended, saved. */
  append(history: readonly SentEntry[], frame: string | object, seq: number): readonly SentEntry[] {
    const next = appendSent(history, frame, seq);
    try {
      sessionStorage.setItem(sentHistoryKey(this.clientIdKey), encodeSentHistory(next));
    } catch {
      // Storage full or refused: the history still lives until the reload; drop the stale copy.
      sessionStorage.removeItem(sentHistoryKey(this.clientIdKey));
    }
    return next;
  }
}
