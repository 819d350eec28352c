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

describe("redaction by key shape and value shape", () => {
  const r = createRedactor([]);
  const frame = (value: unknown) => {
    const out = r.frame(JSON.stringify(value));
    return { value: JSON.parse(out.text), count: out.count };
  };

  it("redacts string values under any secret-looking key, in any case and separator", () => {
    const keys = [
      "MY_API_KEY",
      "GITHUB_TOKEN",
      "OPENAI_API_KEY",
      "X-Goog-Api-Key",
      "apiKey",
      "access_token",
      "clientSecret",
      "db.password",
      "Credentials",
      "Authorization",
      "Proxy-Authorization",
      "auth",
      "privateKey",
      "Cookie",
    ];
    const input = Object.fromEntries(keys.map((k) => [k, "plain-value-123"]));
    const out = frame({ params: input });
    expect(out.count).toBe(keys.length);
    expect(Object.values(out.value.params)).toEqual(keys.map(() => REDACTED));
  });

  it("keeps usage counts, authMethods and ordinary keys that merely look alike", () => {
    const value = {
      result: {
        authMethods: [{ id: "oauth-personal", name: "Log in with Google", description: "uses a browser" }],
        usage: { tokens: 10, maxTokens: 100, inputTokens: 3, output_tokens: 4, cachedReadTokens: 0 },
        stopReason: "max_tokens",
        author: "Ada",
        keyword: "fast",
        path: "/w/keys.txt",
        sessionId: "s-1",
        args: ["--max-tokens", "100", "--author", "Ada", "--signal=TERM"],
        text: "Bearer authentication is described in RFC 6750; see https://x.example/?page=2&sort=asc",
      },
    };
    expect(frame(value)).toEqual({ value, count: 0 });
  });

  it("redacts MCP server env and headers by name, and args after secret flags or with secret assignments", () => {
    const out = frame({
      method: "session/new",
      params: {
        mcpServers: [
          {
            name: "gh",
            command: "server",
            args: ["--token", "t0ps3cret", "--api-key=abcd1234", "--port", "8080", "OPENAI_API_KEY=xyz98765"],
            env: [
              { name: "MY_API_KEY", value: "v1v1v1v1" },
              { name: "PATH", value: "/usr/bin" },
            ],
          },
          {
            type: "http",
            name: "web",
            url: "https://m.example/?key=AAAA1111&x=1",
            headers: [{ name: "X-Goog-Api-Key", value: "hdr" }],
          },
        ],
      },
    });
    const [stdio, http] = out.value.params.mcpServers;
    expect(stdio.args).toEqual([
      "--token",
      REDACTED,
      `--api-key=${REDACTED}`,
      "--port",
      "8080",
      `OPENAI_API_KEY=${REDACTED}`,
    ]);
    expect(stdio.env).toEqual([
      { name: "MY_API_KEY", value: REDACTED },
      { name: "PATH", value: "/usr/bin" },
    ]);
    expect(http.url).toBe(`https://m.example/?key=${REDACTED}&x=1`);
    expect(http.headers[0].value).toBe(REDACTED);
  });

  it("redacts common credential formats anywhere, including prompt text", () => {
    const secrets = [
      "sk-proj-abcdefghijklmnopqrstuvwx",
      "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
      "AIzaSyA1234567890abcdefghijklmnopqrstuv",
      "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "gho_abcdefghijklmnopqrstuvwxyz0123456789",
      "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
      "AKIAIOSFODNN7EXAMPLE",
      "xoxb-1234567890-abcdefghij",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ];
    for (const secret of secrets) {
      const raw = JSON.stringify({
        method: "session/prompt",
        params: { prompt: [{ type: "text", text: `use ${secret} now` }] },
      });
      const out = r.frame(raw);
      expect(out.text, secret).toBe(raw.replace(secret, REDACTED));
      expect(out.count).toBe(1);
    }
    expect(r.text("curl -H 'Authorization: Bearer abcDEF123456789xyz' https://h/?access_token=zzz111&q=1").text).toBe(
      `curl -H 'Authorization: Bearer ${REDACTED}' https://h/?access_token=${REDACTED}&q=1`,
    );
    expect(r.text("postgres://admin:hunter2@db:5432/x").text).toBe(`postgres://admin:${REDACTED}@db:5432/x`);
  });

  it("never redacts twice", () => {
    const once = r.text("KEY=abcdefgh https://h/?token=abcd").text;
    expect(r.text(once)).toEqual({ text: once, count: 0 });
  });
});
