import { describe, expect, it } from "vitest";
import { isUsageOnlyChunk, turnUsageOf, updateUsageOf } from "./turn-usage";

describe("turn usage", () => {
  it("reads ACP usage, Gemini's _meta.quota and _meta.usage from a prompt result", () => {
    expect(turnUsageOf({ usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } })).toEqual({
      source: "usage",
      inputTokens: 1,
      outputTokens: 2,
      totalTokens: 3,
    });
    expect(turnUsageOf({ _meta: { quota: { token_count: { input_tokens: 4, output_tokens: 5 } } } })).toEqual({
      source: "_meta.quota",
      inputTokens: 4,
      outputTokens: 5,
      totalTokens: 9,
    });
    expect(turnUsageOf({ _meta: { usage: { promptTokens: 7, completionTokens: 1 } } })).toEqual({
      source: "_meta.usage",
      inputTokens: 7,
      outputTokens: 1,
      totalTokens: 8,
    });
    expect(turnUsageOf({ stopReason: "end_turn" })).toBeUndefined();
  });

  it("reads usage_update and _meta.usage (Qwen Code) from session updates", () => {
    expect(updateUsageOf({ sessionUpdate: "usage_update", used: 13, size: 128000 })).toEqual({
      source: "usage_update",
      contextUsed: 13,
      contextSize: 128000,
    });
    const qwen = {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "" },
      _meta: { usage: { promptTokens: 12, completionTokens: 1, thoughtsTokens: 3, cachedTokens: 2 } },
    };
    expect(updateUsageOf(qwen)).toEqual({
      source: "_meta.usage",
      inputTokens: 12,
      outputTokens: 1,
      totalTokens: 13,
      thoughtTokens: 3,
      cachedReadTokens: 2,
    });
    expect(
      updateUsageOf({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } }),
    ).toBeUndefined();
    expect(isUsageOnlyChunk(qwen)).toBe(true);
    expect(isUsageOnlyChunk({ ...qwen, content: { type: "text", text: "hi" } })).toBe(false);
    expect(isUsageOnlyChunk({ ...qwen, _meta: undefined })).toBe(false);
  });
});
