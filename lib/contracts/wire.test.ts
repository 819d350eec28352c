import { describe, expect, it } from "vitest";
import { frameLine, parsePayload } from "./wire";

const parseStartPayload = (payload: unknown) => parsePayload("agent:start", payload);
/** What the relay does with `agent:send`: the schema, then the line checks. */
function parseSendPayload(payload: unknown, maxLineBytes: number) {
  const parsed = parsePayload("agent:send", payload);
  return parsed.ok ? frameLine(parsed.value.frame, maxLineBytes) : parsed;
}

describe("agent:start payload", () => {
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

describe("agent:probe payload", () => {
  it("takes the start fields and the terminals opt-in, nothing else", () => {
    expect(parsePayload("agent:probe", { profile: "p" })).toEqual({ ok: true, value: { profile: "p" } });
    expect(parsePayload("agent:probe", { profile: "p", terminals: true })).toEqual({
      ok: true,
      value: { profile: "p", terminals: true },
    });
    expect(parsePayload("agent:probe", { terminals: "yes" }).ok).toBe(false);
    expect(parsePayload("agent:start", { terminals: true }).ok).toBe(false);
  });
});

describe("agent:send payload", () => {
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

describe("payloads of events that take none", () => {
  it("accepts {} and nothing, refuses the rest", () => {
    expect(parsePayload("agent:stop", {}).ok).toBe(true);
    expect(parsePayload("agent:stop", undefined).ok).toBe(true);
    expect(parsePayload("agent:stop", { now: true }).ok).toBe(false);
    expect(parsePayload("agent:stop", 1).ok).toBe(false);
  });
});

describe("contract errors", () => {
  it("name the event, the field and what is wrong", () => {
    expect(parseStartPayload({ command: "rm -rf /" })).toEqual({
      ok: false,
      error: { code: "invalid_payload", message: "agent:start: unknown field: command" },
    });
    expect(parseStartPayload({ profile: 3 })).toEqual({
      ok: false,
      error: { code: "invalid_payload", message: "agent:start: profile: expected string, received number" },
    });
  });

  it("refuse unknown fields in policy:set, as in every other payload", () => {
    expect(parsePayload("policy:set", { policies: { "fs/read_text_file": "auto" } })).toEqual({
      ok: true,
      value: { policies: { "fs/read_text_file": "auto" } },
    });
    expect(parsePayload("policy:set", { policies: {}, extra: 1 })).toMatchObject({
      ok: false,
      error: { message: "policy:set: unknown field: extra" },
    });
    expect(parsePayload("policy:set", { policies: { "session/update": "auto" } })).toMatchObject({
      ok: false,
      error: { message: "policy:set: policies: no policy for session/update" },
    });
    expect(parsePayload("policy:set", { policies: { "fs/read_text_file": "yes" } })).toMatchObject({
      ok: false,
      error: { message: "policy:set: policies.fs/read_text_file: policy must be ask, auto or deny" },
    });
  });
});
