import { describe, expect, it } from "vitest";
import {
  diffRows,
  MAX_DIFF_LINES,
  diffStats,
  eventSummary,
  formatMs,
  formatUsage,
  imageDataUrl,
  sessionContextOf,
} from "./session-view-format";
import type { SessionEventUpdate } from "./session-view";

describe("imageDataUrl", () => {
  it("builds a data URL for base64 image data", () => {
    expect(imageDataUrl({ mimeType: "image/png", data: "iVBORw0K\nGgo=" })).toBe("data:image/png;base64,iVBORw0KGgo=");
  });
  it("refuses other mime types, non-base64 data and anything that could be a URL", () => {
    expect(imageDataUrl({ mimeType: "text/html", data: "PGI+" })).toBeUndefined();
    expect(imageDataUrl({ mimeType: "image/png;x=1", data: "AAAA" })).toBeUndefined();
    expect(imageDataUrl({ mimeType: "image/png", data: "javascript:alert(1)" })).toBeUndefined();
    expect(imageDataUrl({ mimeType: "image/png", data: "http://x/y.png" })).toBeUndefined();
    expect(imageDataUrl({ mimeType: "image/png", data: "" })).toBeUndefined();
    expect(imageDataUrl({ mimeType: "image/png", data: 5 })).toBeUndefined();
    expect(imageDataUrl({ data: "AAAA" })).toBeUndefined();
  });
});

describe("diffRows", () => {
  it("shows a new file as added lines", () => {
    expect(diffRows(null, "a\nb\n")).toEqual([
      { type: "add", text: "a", newNo: 1 },
      { type: "add", text: "b", newNo: 2 },
    ]);
  });
  it("numbers both sides and folds far context", () => {
    const old = Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n") + "\n";
    const rows = diffRows(old, old.replace("l10\n", "L10\n"))!;
    expect(rows[0]).toEqual({ type: "skip", count: 7 });
    expect(rows.filter((r) => r.type === "del")).toEqual([{ type: "del", text: "l10", oldNo: 11 }]);
    expect(rows.filter((r) => r.type === "add")).toEqual([{ type: "add", text: "L10", newNo: 11 }]);
    expect(rows.at(-1)).toEqual({ type: "skip", count: 6 });
    expect(diffStats(rows)).toEqual({ added: 1, removed: 1 });
  });
  it("computes nothing past MAX_DIFF_LINES lines (an agent's diff is hostile input)", () => {
    expect(diffRows("", "\n".repeat(MAX_DIFF_LINES))).toBeUndefined();
    expect(diffRows("", "\n".repeat(MAX_DIFF_LINES - 3))).toBeDefined();
  });
  it("is empty for equal texts but for the folded context", () => {
    expect(diffRows("a\n", "a\n")).toEqual([{ type: "skip", count: 1 }]);
  });
});

describe("formatting", () => {
  it("formats durations", () => {
    expect(formatMs(12.4)).toBe("12 ms");
    expect(formatMs(1250)).toBe("1.25 s");
    expect(formatMs(125_000)).toBe("2 min 5 s");
    expect(formatMs(undefined)).toBe("");
  });
  it("formats token usage as reported", () => {
    expect(formatUsage({ source: "_meta.quota", inputTokens: 1200, outputTokens: 7, totalTokens: 1207, raw: {} })).toBe(
      "1,200 in · 7 out · 1,207 total",
    );
    expect(formatUsage({ source: "usage", raw: {} })).toBe("");
  });
  it("summarises session events in one line", () => {
    const cmds = Array.from({ length: 10 }, (_, i) => ({ name: `c${i}`, description: "" }));
    expect(eventSummary({ sessionUpdate: "available_commands_update", availableCommands: cmds })).toEqual({
      label: "10 commands",
      text: "/c0 /c1 /c2 /c3 /c4 /c5 /c6 /c7 +2 more",
    });
    expect(eventSummary({ sessionUpdate: "current_mode_update", currentModeId: "plan" }).text).toBe("→ plan");
    expect(
      eventSummary({ sessionUpdate: "usage_update", used: 500, size: 1000, cost: { amount: 0.1, currency: "USD" } })
        .text,
    ).toBe("500 / 1,000 tokens (50%) · 0.1 USD");
    expect(eventSummary({ sessionUpdate: "session_info_update", title: "Fix bug" }).text).toBe("title “Fix bug”");
    expect(eventSummary({ sessionUpdate: "session_info_update", title: null }).text).toBe("title cleared");
    expect(
      eventSummary({
        sessionUpdate: "config_option_update",
        configOptions: [{ id: "m", name: "Model", type: "select", currentValue: "pro", options: [] }],
      } as unknown as SessionEventUpdate).text,
    ).toBe("Model = pro");
    expect(
      eventSummary({ sessionUpdate: "notice", severity: "warning", title: "Slow", description: "rate limited" }),
    ).toEqual({
      label: "notice (warning)",
      text: "Slow: rate limited",
    });
  });
});

describe("sessionContextOf", () => {
  it("splits Gemini's <session_context> block from the user's words after it", () => {
    const ctx = "<session_context>\ncwd: /w\n</session_context>";
    expect(sessionContextOf([{ type: "text", text: ctx }])).toEqual({ context: ctx, rest: "" });
    expect(sessionContextOf([{ type: "text", text: `${ctx}\n\nWhat changed?` }])).toEqual({
      context: ctx,
      rest: "What changed?",
    });
    expect(sessionContextOf([{ type: "text", text: "<session_context> unclosed" }])?.rest).toBe("");
  });

  it("leaves any other message alone", () => {
    expect(sessionContextOf([{ type: "text", text: "hi <session_context>" }])).toBeUndefined();
    expect(sessionContextOf([{ type: "image" }])).toBeUndefined();
    expect(sessionContextOf([])).toBeUndefined();
  });
});
