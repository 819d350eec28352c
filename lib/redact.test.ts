import { describe, expect, it } from "vitest";
import { createRedactor, REDACTED, secretsFromEnv } from "./redact";

describe("secretsFromEnv", () => {
  it("takes values of secret-looking names only, longest first", () => {
    expect(
      secretsFromEnv({
        GEMINI_API_KEY: "AIzaSy-secret-value",
        GITHUB_TOKEN: "ghp_abcdefgh",
        PATH: "/usr/bin",
        SHORT_KEY: "abc",
        HOME: "/root",
      }),
    ).toEqual(["AIzaSy-secret-value", "ghp_abcdefgh"]);
  });
});

describe("createRedactor", () => {
  const r = createRedactor(["AIzaSy-secret-value", 'we"ird\\key']);

  it("replaces environment secrets anywhere, keeping the rest of the raw text byte for byte", () => {
    const raw = '{"jsonrpc":"2.0","method":"x","params":{"text":"key is AIzaSy-secret-value ok"}}';
    expect(r.frame(raw)).toEqual({ text: raw.replace("AIzaSy-secret-value", REDACTED), count: 1 });
    expect(r.text("stderr: AIzaSy-secret-value AIzaSy-secret-value")).toEqual({
      text: `stderr: ${REDACTED} ${REDACTED}`,
      count: 2,
    });
  });

  it("finds a secret in its JSON-escaped form", () => {
    const raw = JSON.stringify({ v: 'we"ird\\key' });
    expect(r.frame(raw).text).toBe(JSON.stringify({ v: REDACTED }));
  });

  it("replaces Authorization headers and api keys in frames", () => {
    const raw = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "session/new",
      params: {
        mcpServers: [
          { type: "http", name: "m", url: "http://x", headers: [{ name: "Authorization", value: "Bearer abc.def" }] },
        ],
        _meta: { "api-key": "sk-live-123", apiKey: "k2", quota: { token_count: { input_tokens: 3 } } },
      },
    });
    const out = r.frame(raw);
    expect(out.count).toBe(3);
    const parsed = JSON.parse(out.text);
    expect(parsed.params.mcpServers[0].headers[0]).toEqual({ name: "Authorization", value: REDACTED });
    expect(parsed.params._meta).toEqual({
      "api-key": REDACTED,
      apiKey: REDACTED,
      quota: { token_count: { input_tokens: 3 } },
    });
    expect(out.text).not.toContain("abc.def");
  });

  it("leaves frames without secrets untouched", () => {
    const raw =
      '{"jsonrpc":"2.0","id":1,"result":{"authMethods":[{"id":"gemini-api-key","_meta":{"api-key":{"provider":"google"}}}]}}';
    expect(r.frame(raw)).toEqual({ text: raw, count: 0 });
    expect(r.frame("not json token")).toEqual({ text: "not json token", count: 0 });
  });
});
