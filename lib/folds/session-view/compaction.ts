/** Context compaction (`compaction_update`, `compaction_summary_chunk`): one marker per compaction id. */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { str } from "../../protocol/json";
import { isBlock, type Draft, type Obj } from "./draft";
import { addItem, lastIndex, ownAt, type Target } from "./items";
import { SeqList } from "./seq-list";
import type { CompactionItem } from "./types";
import { appendBlock } from "./messages";

function upsert(d: Draft, tg: Target, seq: number, compactionId: string): CompactionItem {
  const i = lastIndex(tg.items, (it) => it.type === "compaction" && it.compactionId === compactionId);
  if (i >= 0) return ownAt<CompactionItem>(d, tg, i, seq);
  return addItem<CompactionItem>(d, tg, {
    type: "compaction",
    compactionId,
    status: "in_progress",
    summary: d.fresh<ContentBlock[]>([]),
    seqs: SeqList.of(seq),
  });
}

/** Patch semantics: absent leaves a field, null (or `summary: []`) clears it. */
export function onCompactionUpdate(d: Draft, tg: Target, seq: number, u: Obj): string | undefined {
  const id = str(u.compactionId);
  if (id === undefined) return "compactionId is not a string";
  if (typeof u.status !== "string") return "status is not a string";
  const it = upsert(d, tg, seq, id);
  it.status = u.status;
  if (u.summary === null) it.summary = [];
  else if (Array.isArray(u.summary)) it.summary = u.summary.filter(isBlock);
  if (u.error === null) delete it.error;
  else if (typeof u.error === "string") it.error = u.error;
  return undefined;
}

export function onCompactionSummaryChunk(d: Draft, tg: Target, seq: number, u: Obj): string | undefined {
  const id = str(u.compactionId);
  if (id === undefined) return "compactionId is not a string";
  if (!isBlock(u.content)) return "content is not a content block";
  const it = upsert(d, tg, seq, id);
  it.summary = appendBlock(d, it.summary, u.content);
  return undefined;
}
