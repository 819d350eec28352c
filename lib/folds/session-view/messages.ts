/**
 * Messages: v1 chunks (appended to the message they continue), v2 upserts by `messageId`
 * (`user_message`, `agent_message`, `agent_thought`: `content` replaces, null clears), and
 * the unstable inter-session messages (`session_message`, `session_message_chunk`).
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { str } from "../../protocol/json";
import { isBlock, type Draft, type Obj } from "./draft";
import { addItem, lastIndex, ownAt, type Target } from "./items";
import { SeqList } from "./seq-list";
import type { MessageItem, SessionMessageItem } from "./types";

export function appendChunk(
  d: Draft,
  tg: Target,
  seq: number,
  type: MessageItem["type"],
  block: ContentBlock,
  messageId: string | undefined,
): void {
  const items = tg.items;
  const i = items.length - 1;
  const last = items[i];
  if (
    last?.type === type &&
    // ACP: a new messageId starts a new message.
    !(messageId !== undefined && last.messageId !== undefined && messageId !== last.messageId) &&
    !!last.outOfTurn === tg.outOfTurn
  ) {
    const it = d.own(last);
    items[i] = it;
    it.blocks = appendBlock(d, it.blocks, block);
    it.seqs = it.seqs.append(seq);
    if (it.messageId === undefined && messageId !== undefined) it.messageId = messageId;
    return;
  }
  // v2: a chunk appends to the message with its id wherever it is (messages may interleave).
  if (messageId !== undefined) {
    const j = lastIndex(items, (it) => it.type === type && it.messageId === messageId);
    if (j >= 0) {
      const it = ownAt<MessageItem>(d, tg, j, seq);
      it.blocks = appendBlock(d, it.blocks, block);
      return;
    }
  }
  const item: MessageItem = { type, blocks: d.fresh([block]), seqs: SeqList.of(seq) };
  if (messageId !== undefined) item.messageId = messageId;
  addItem(d, tg, item);
}

export function appendBlock(d: Draft, blocks: ContentBlock[], block: ContentBlock): ContentBlock[] {
  const out = d.own(blocks);
  const j = out.length - 1;
  const prev = out[j];
  if (prev?.type === "text" && block.type === "text") {
    // The block may come straight from a frame's message: copy before writing. String `+` is a rope: O(1).
    const merged = d.own(prev);
    merged.text += block.text;
    out[j] = merged;
  } else {
    out.push(block);
  }
  return out;
}

const UPSERT_ITEM = { user_message: "user_message", agent_message: "agent_message", agent_thought: "thought" } as const;

/** v2 `user_message`, `agent_message`, `agent_thought`. Returns a reason when malformed. */
export function onMessageUpsert(
  d: Draft,
  tg: Target,
  seq: number,
  variant: keyof typeof UPSERT_ITEM,
  u: Obj,
): string | undefined {
  const messageId = str(u.messageId);
  if (messageId === undefined) return "messageId is not a string";
  const type = UPSERT_ITEM[variant];
  let i = lastIndex(tg.items, (it) => it.type === type && it.messageId === messageId);
  // The prompt's own user message, echoed by the agent with its id: the same message, not a second bubble.
  if (i < 0 && type === "user_message" && tg.turn && tg.items[0] === tg.turn.items[0]) {
    const first = tg.items[0];
    if (first?.type === "user_message" && first.messageId === undefined) i = 0;
  }
  let it: MessageItem;
  if (i < 0) {
    it = addItem<MessageItem>(d, tg, { type, messageId, blocks: d.fresh<ContentBlock[]>([]), seqs: SeqList.of(seq) });
  } else {
    it = ownAt<MessageItem>(d, tg, i, seq);
    it.messageId = messageId;
  }
  if (u.content === null) it.blocks = [];
  else if (Array.isArray(u.content)) it.blocks = u.content.filter(isBlock);
  return undefined;
}

function upsertSessionMessage(d: Draft, tg: Target, seq: number, messageId: string): SessionMessageItem {
  const i = lastIndex(tg.items, (it) => it.type === "session_message" && it.messageId === messageId);
  if (i >= 0) return ownAt<SessionMessageItem>(d, tg, i, seq);
  return addItem<SessionMessageItem>(d, tg, {
    type: "session_message",
    messageId,
    blocks: d.fresh<ContentBlock[]>([]),
    seqs: SeqList.of(seq),
  });
}

/** `session_message`: patch semantics for its participants, `content` replaces. */
export function onSessionMessage(d: Draft, tg: Target, seq: number, u: Obj): string | undefined {
  const messageId = str(u.messageId);
  if (messageId === undefined) return "messageId is not a string";
  const it = upsertSessionMessage(d, tg, seq, messageId);
  for (const k of ["senderSessionId", "recipientSessionId"] as const) {
    const v = u[k];
    if (v === null) delete it[k];
    else if (typeof v === "string") it[k] = v;
  }
  if (u.content === null) it.blocks = [];
  else if (Array.isArray(u.content)) it.blocks = u.content.filter(isBlock);
  return undefined;
}

export function onSessionMessageChunk(d: Draft, tg: Target, seq: number, u: Obj): string | undefined {
  const messageId = str(u.messageId);
  if (messageId === undefined) return "messageId is not a string";
  if (!isBlock(u.content)) return "content is not a content block";
  const it = upsertSessionMessage(d, tg, seq, messageId);
  it.blocks = appendBlock(d, it.blocks, u.content);
  return undefined;
}
