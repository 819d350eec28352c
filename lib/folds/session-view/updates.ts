/** `session/update`: the dispatch on `sessionUpdate`, messages and session-state events. */
import type {
  AvailableCommand,
  ContentBlock,
  PlanEntry,
  SessionConfigOption,
  UsageUpdate,
} from "@agentclientprotocol/sdk";
import type { Frame } from "../../protocol/frame";
import { isObject, num, str } from "../../protocol/json";
import { isUsageOnlyChunk } from "../turn-usage";
import { isBlock, type Draft, type Obj } from "./draft";
import { addItem, addUnknown, firstOutput, lastIndex, ownSession, target, type Target } from "./items";
import { SeqList } from "./seq-list";
import { mergeToolCall } from "./tool-calls";
import { NO_SESSION, type EventItem, type MessageItem, type PlanItem, type SessionEventUpdate } from "./types";

// session/update

export const CHUNK_ITEM = {
  user_message_chunk: "user_message",
  agent_message_chunk: "agent_message",
  agent_thought_chunk: "thought",
} as const;

export function onUpdate(d: Draft, f: Frame, p: Obj): void {
  const s = ownSession(d, str(p.sessionId) ?? NO_SESSION, f.seq);
  const tg = target(d, s);
  const u = p.update;
  const variant = isObject(u) ? str(u.sessionUpdate) : undefined;
  if (!isObject(u) || variant === undefined) {
    addUnknown(d, s, tg, f.seq, "(malformed)", u, "update has no sessionUpdate");
    return;
  }
  const bad = (reason: string) => addUnknown(d, s, tg, f.seq, variant, u, reason);
  const event = () => addEvent(d, tg, f.seq, u as unknown as SessionEventUpdate);
  switch (variant) {
    case "user_message_chunk":
    case "agent_message_chunk":
    case "agent_thought_chunk": {
      if (!isBlock(u.content)) return bad("content is not a content block");
      // Qwen Code's usage report: an empty chunk carrying `_meta.usage`, not a message.
      if (isUsageOnlyChunk(u)) return;
      const type = CHUNK_ITEM[variant];
      appendChunk(d, tg, f.seq, type, u.content, str(u.messageId));
      if (type !== "user_message") firstOutput(tg, f);
      if (type === "agent_message" && tg.turn) tg.turn.agentMessageChunks++;
      return;
    }
    case "tool_call":
    case "tool_call_update":
      if (typeof u.toolCallId !== "string") return bad("toolCallId is not a string");
      mergeToolCall(d, tg, f.seq, u.toolCallId, u);
      firstOutput(tg, f);
      return;
    case "plan": {
      if (!Array.isArray(u.entries)) return bad("entries is not an array");
      const entries = u.entries as PlanEntry[];
      const i = lastIndex(tg.items, (it) => it.type === "plan");
      if (i < 0) {
        addItem<PlanItem>(d, tg, { type: "plan", entries, seqs: SeqList.of(f.seq) });
      } else {
        // A plan is a full replacement; it keeps its place in the turn.
        const it = d.own(tg.items[i] as PlanItem);
        tg.items[i] = it;
        it.entries = entries;
        it.seqs = it.seqs.append(f.seq);
      }
      return;
    }
    case "available_commands_update":
      if (!Array.isArray(u.availableCommands)) return bad("availableCommands is not an array");
      s.availableCommands = u.availableCommands as AvailableCommand[];
      return event();
    case "current_mode_update":
      if (typeof u.currentModeId !== "string") return bad("currentModeId is not a string");
      s.currentModeId = u.currentModeId;
      return event();
    case "config_option_update":
      if (!Array.isArray(u.configOptions)) return bad("configOptions is not an array");
      s.configOptions = u.configOptions as SessionConfigOption[];
      return event();
    case "session_info_update": {
      // Partial update: absent leaves a field alone, null clears it.
      const info = { ...s.info };
      if (u.title === null || typeof u.title === "string") info.title = u.title;
      if (u.updatedAt === null || typeof u.updatedAt === "string") info.updatedAt = u.updatedAt;
      if (u._meta === null || isObject(u._meta)) info._meta = u._meta;
      s.info = info;
      return event();
    }
    case "usage_update":
      if (num(u.used) === undefined || num(u.size) === undefined) return bad("used or size is not a number");
      s.usage = u as unknown as UsageUpdate;
      return event();
    case "notice":
      if (typeof u.title !== "string") return bad("title is not a string");
      return event();
    default:
      return bad("not a session update this view decodes");
  }
}

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

export function addEvent(d: Draft, tg: Target, seq: number, update: SessionEventUpdate): void {
  const i = tg.items.length - 1;
  const last = tg.items[i];
  // Usage updates come often and each is a full snapshot: fold a run of them into one item.
  if (
    update.sessionUpdate === "usage_update" &&
    last?.type === "event" &&
    last.update.sessionUpdate === "usage_update" &&
    !!last.outOfTurn === tg.outOfTurn
  ) {
    const it = d.own(last);
    tg.items[i] = it;
    it.update = update;
    it.seqs = it.seqs.append(seq);
    return;
  }
  addItem<EventItem>(d, tg, { type: "event", update, seqs: SeqList.of(seq) });
}
