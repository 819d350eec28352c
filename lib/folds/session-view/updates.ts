/** `session/update`: the dispatch on `sessionUpdate`, messages and session-state events. */
import type { AvailableCommand, SessionConfigOption, UsageUpdate } from "@agentclientprotocol/sdk";
import type { Frame } from "../../protocol/frame";
import { isObject, num, str } from "../../protocol/json";
import { isUsageOnlyChunk } from "../turn-usage";
import { onCompactionSummaryChunk, onCompactionUpdate } from "./compaction";
import { compact, isBlock, type Draft, type Obj } from "./draft";
import { addItem, addUnknown, firstOutput, ownSession, target, type Target } from "./items";
import { appendChunk, onMessageUpsert, onSessionMessage, onSessionMessageChunk } from "./messages";
import { onPlan, onPlanRemoved, onPlanUpdate } from "./plans";
import { SeqList } from "./seq-list";
import { onSubagentUpdate } from "./subagents";
import { mergeToolCall } from "./tool-calls";
import { NO_SESSION, NOT_DECODED, type EventItem, type SessionEventUpdate } from "./types";
import { onStateUpdate, onTerminalOutputChunk, onTerminalUpdate, onToolCallContentChunk } from "./v2";

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
  const or = (reason: string | undefined) => (reason === undefined ? undefined : bad(reason));
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
    case "plan":
      return or(onPlan(d, tg, f.seq, u));
    case "plan_update":
      return or(onPlanUpdate(d, tg, f.seq, u));
    case "plan_removed":
      return or(onPlanRemoved(d, tg, f.seq, u));
    case "compaction_update":
      return or(onCompactionUpdate(d, tg, f.seq, u));
    case "compaction_summary_chunk":
      return or(onCompactionSummaryChunk(d, tg, f.seq, u));
    case "subagent_update":
      return or(onSubagentUpdate(d, s, tg, f.seq, u));
    case "session_message":
      return or(onSessionMessage(d, tg, f.seq, u));
    case "session_message_chunk":
      return or(onSessionMessageChunk(d, tg, f.seq, u));
    case "user_message":
    case "agent_message":
    case "agent_thought": {
      const r = onMessageUpsert(d, tg, f.seq, variant, u);
      if (r === undefined && variant !== "user_message") firstOutput(tg, f);
      if (r === undefined && variant === "agent_message" && tg.turn) tg.turn.agentMessageChunks++;
      return or(r);
    }
    case "state_update":
      return or(onStateUpdate(d, s, tg, f, u));
    case "tool_call_content_chunk":
      firstOutput(tg, f);
      return or(onToolCallContentChunk(d, tg, f.seq, u));
    case "terminal_update":
      return or(onTerminalUpdate(d, tg, f.seq, u));
    case "terminal_output_chunk":
      return or(onTerminalOutputChunk(d, tg, f.seq, u));
    case "available_commands_update":
      if (!Array.isArray(u.availableCommands)) return bad("availableCommands is not an array");
      {
        // Rendered by name and description: each must be a string (the rest is kept as sent).
        const commands = u.availableCommands
          .filter((c): c is Obj => isObject(c) && typeof c.name === "string")
          .map((c) => (typeof c.description === "string" ? c : { ...c, description: "" })) as AvailableCommand[];
        s.availableCommands = commands;
        return addEvent(d, tg, f.seq, { ...u, availableCommands: commands } as unknown as SessionEventUpdate);
      }
    case "current_mode_update":
      if (typeof u.currentModeId !== "string") return bad("currentModeId is not a string");
      s.currentModeId = u.currentModeId;
      return event();
    case "config_option_update":
      if (!Array.isArray(u.configOptions)) return bad("configOptions is not an array");
      {
        const options = configOptions(u.configOptions);
        s.configOptions = options;
        return addEvent(d, tg, f.seq, { ...u, configOptions: options } as unknown as SessionEventUpdate);
      }
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
    case "notice": {
      if (typeof u.title !== "string") return bad("title is not a string");
      // Only what is shown, each of the right type: a notice's fields come from the agent.
      const notice = compact({
        sessionUpdate: "notice",
        title: u.title,
        severity: str(u.severity) ?? "info",
        description: str(u.description),
      });
      return addEvent(d, tg, f.seq, notice as unknown as SessionEventUpdate);
    }
    default:
      return bad(NOT_DECODED);
  }
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

/** Config options as sent, without the entries that are not objects with a string name (they are rendered by name). */
export function configOptions(v: unknown[]): SessionConfigOption[] {
  return v.filter((o) => isObject(o) && typeof o.name === "string") as unknown as SessionConfigOption[];
}
