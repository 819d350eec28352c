import { describe, expect, it } from "vitest";
import { parseEmptyPayload, parseSendPayload, parseStartPayload } from "./wire";

describe("parseStartPayload", () => {
  it("accepts nothing, or the documented fields", () => {
    expect(parseStartPayload(undefined)).toEqual({ ok: true, value: {} });
    expect(parseStartPayload({ profile: "gemini", cwd: "sub", options: { model: "x" } })).toMatchObject({ ok: true });
  });

  it.each([["a string"], [[1]], [{ profile: 3 }], [{ cwd: {} }], [{ options: [] }], [{ command: "rm -rf /" }]])(
    "refuses %j",
    (payload) => {
      const r = parseStartPayload(payload);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe("invalid_payload");
    },
  );
});

describe("parseSendPayload", () => {
  it("sends a string verbatim and serialises an object", () => {
    expect(parseSendPayload({ frame: "{not json" }, 100)).toEqual({ ok: true, value: "{not json" });
    expect(parseSendPayload({ frame: { jsonrpc: "2.0", id: 1 } }, 100)).toEqual({
      ok: true,
      value: '{"jsonrpc":"2.0","id":1}',
    });
  });

  it("refuses payloads that are not one line or too long", () => {
    expect(parseSendPayload("x", 100)).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
    expect(parseSendPayload({}, 100)).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
    expect(parseSendPayload({ frame: 5 }, 100)).toMatchObject({ ok: false });
    expect(parseSendPayload({ frame: "a\nb" }, 100)).toMatchObject({ ok: false, error: { code: "invalid_frame" } });
    expect(parseSendPayload({ frame: "" }, 100)).toMatchObject({ ok: false, error: { code: "invalid_frame" } });
    expect(parseSendPayload({ frame: "x".repeat(101) }, 100)).toMatchObject({
      ok: false,
      error: { code: "frame_too_large" },
    });
    expect(parseSendPayload({ frame: "x", extra: 1 }, 100)).toMatchObject({ ok: false });
  });

  it("refuses an object that cannot be serialised", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(parseSendPayload({ frame: cyclic }, 100)).toMatchObject({ ok: false, error: { code: "invalid_payload" } });
  });
});

describe("parseEmptyPayload", () => {
  it("accepts {} and nothing, refuses the rest", () => {
    expect(parseEmptyPayload("agent:stop", {}).ok).toBe(true);
    expect(parseEmptyPayload("agent:stop", undefined).ok).toBe(true);
    expect(parseEmptyPayload("agent:stop", { now: true }).ok).toBe(false);
    expect(parseEmptyPayload("agent:stop", 1).ok).toBe(false);
  });
});
