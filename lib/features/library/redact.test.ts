import { describe, expect, it } from "vitest";
import { redactTranscript } from "./export-page";
import { createRedactor, MIN_REDACTED_LENGTH, REDACTED, secretsFromEnv } from "./redact";
import { parseTranscript } from "../../contracts/transcript";

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

describe("typed and environment secrets never break JSON", () => {
  const frame = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "session/prompt",
    params: { sessionId: "s-1", prompt: [{ type: "text", text: "1 apple, 12 pears" }], n: 1 },
  });

  it("looks for no value shorter than MIN_REDACTED_LENGTH: a typed 1 is not a secret", () => {
    const r = createRedactor(["1", "s-1", "2.0", "1234567"]);
    expect(r.frame(frame)).toEqual({ text: frame, count: 0 });
    expect(r.text("1 and 1234567")).toEqual({ text: "1 and 1234567", count: 0 });
    expect(createRedactor(["12345678"]).text("pin 12345678")).toEqual({ text: `pin ${REDACTED}`, count: 1 });
    expect(MIN_REDACTED_LENGTH).toBe(8);
    expect(secretsFromEnv({ DESKTOP_SESSION: "ubuntu", XDG_SESSION_TYPE: "wayland", MY_TOKEN: "t0k3n-v4l" })).toEqual([
      "t0k3n-v4l",
    ]);
  });

  it("redacts a long secret inside a string, keeping the rest byte for byte", () => {
    const secret = "typed-in-the-page-4c1e9a";
    const r = createRedactor([secret]);
    const raw = `{ "jsonrpc": "2.0",\t"id": 7, "params": {"text": "key=${secret}!", "n": 1.50} }`;
    expect(r.frame(raw)).toEqual({ text: raw.replace(secret, REDACTED), count: 1 });
    // Escaped in the line: decoded, replaced, and only that string written again.
    const quoted = 'say "hi" \\ to-me';
    const escaped = JSON.stringify({ a: `x\n${quoted}\t"`, n: 1.5e3, b: quoted });
    const out = createRedactor([quoted]).frame(escaped);
    expect(out.count).toBe(2);
    expect(JSON.parse(out.text)).toEqual({ a: `x\n${REDACTED}\t"`, n: 1500, b: REDACTED });
  });

  it("never touches a number, a literal or the structure: the output is the same JSON", () => {
    const r = createRedactor(["12345678", '","method":"', 'true,"n":null', 'jsonrpc":"2.0']);
    const raw = JSON.stringify({
      jsonrpc: "2.0",
      id: 12345678,
      ts: 1712345678901,
      method: "x",
      params: { ok: true, n: null, values: [12345678, 9123456789], text: "pin 12345678" },
    });
    const out = r.frame(raw);
    expect(out.count).toBe(1);
    expect(JSON.parse(out.text)).toEqual({
      ...JSON.parse(raw),
      params: { ...JSON.parse(raw).params, text: `pin ${REDACTED}` },
    });
    expect(out.text).toBe(raw.replace("pin 12345678", `pin ${REDACTED}`));
  });

  it("replaces a secret used as a key, and the output still parses", () => {
    const r = createRedactor(["sk-typed-value-77"]);
    const out = r.frame(JSON.stringify({ params: { env: { "sk-typed-value-77": 1, other: "sk-typed-value-77" } } }));
    expect(JSON.parse(out.text)).toEqual({ params: { env: { [REDACTED]: 1, other: REDACTED } } });
  });

  it("keeps a transcript line and the frame inside it valid JSON, and exports it (was 422)", () => {
    const secret = "31415926";
    const raw = JSON.stringify({ jsonrpc: "2.0", id: 31415926, result: { text: `the pin is ${secret}` } });
    const line = JSON.stringify({ type: "frame", seq: 3, ts: 1731415926535, dir: "from-agent", raw, kind: "response" });
    const r = createRedactor([secret]);
    const out = r.text(line);
    const event = JSON.parse(out.text) as { ts: number; raw: string };
    expect(event.ts).toBe(1731415926535);
    expect(JSON.parse(event.raw)).toEqual({ jsonrpc: "2.0", id: 31415926, result: { text: `the pin is ${REDACTED}` } });
    expect(out.count).toBe(1);

    const header = JSON.stringify({
      type: "header",
      format: "acp-playground-transcript",
      version: "1.0",
      id: "20260101-000000-abcdef01",
      createdAt: "2026-01-01T00:00:00.000Z",
      playground: { version: "0.1.0" },
      agent: { profile: "stub", command: "agent", args: [], cwd: "/w" },
    });
    const stderr = JSON.stringify({ type: "stderr", ts: 1731415926536, text: `pin ${secret}` });
    // The page's "1" as well: before, every 1 became REDACTED and the export answered 422.
    const exported = redactTranscript(`${header}\n${line}\n${stderr}\n`, ["1", secret]);
    const parsed = parseTranscript(exported.text);
    expect(parsed.frames).toHaveLength(1);
    expect(JSON.parse(parsed.frames[0]!.raw)).toMatchObject({ id: 31415926 });
    expect(exported.text).not.toContain(`is ${secret}`);
    expect(exported.text).not.toContain(`pin ${secret}`);
    expect(exported.text).toContain("1731415926535");
  });

  it("in plain text replaces the secret anywhere, digits included", () => {
    const r = createRedactor(["12345678"]);
    expect(r.text("pin=12345678 at 11234567890")).toEqual({
      text: `pin=${REDACTED} at 1${REDACTED}90`,
      count: 2,
    });
    // Cut-off JSON is text: the secret is not kept for want of structure.
    expect(r.text('{"a": 12345678, "b": "x').text).toBe(`{"a": ${REDACTED}, "b": "x`);
  });

  it("stays linear: a large line with many strings and secrets costs about as much as its size", () => {
    const secret = "s3cr3t-value-123";
    const r = createRedactor([secret, "99999999"]);
    const time = (n: number) => {
      const items = Array.from({ length: n }, (_, i) => ({
        i,
        text: i % 10 === 0 ? `x ${secret} y` : `line ${i} "q" \\ é`,
      }));
      const line = JSON.stringify({ type: "frame", raw: JSON.stringify({ id: 1, params: { items } }) });
      const start = performance.now();
      const out = r.text(line);
      const ms = performance.now() - start;
      expect(out.count).toBe(n / 10);
      return ms;
    };
    time(2_000); // warm up
    const small = time(20_000);
    const large = time(160_000);
    // 8x the input: far from 64x (quadratic); generous for a loaded machine.
    expect(large).toBeLessThan(small * 30 + 200);
  });

  it("stays linear on text made to be scanned again from every word boundary (a.a.a..., -a-a-a...)", () => {
    const r = createRedactor([]);
    for (const unit of ["a.", "a-", "-a", "a+"]) {
      const time = (n: number) => {
        const text = unit.repeat(n);
        const start = performance.now();
        expect(r.text(text).count).toBe(0);
        return performance.now() - start;
      };
      time(500); // warm up
      const small = time(2_000);
      const large = time(32_000);
      // 16x the input: far from 256x (quadratic: it took 10 s for 100 KB); generous for a loaded machine.
      expect(large, unit).toBeLessThan(small * 60 + 200);
    }
  });
});

describe("credentials an agent prints from its environment (issue #34)", () => {
  // Made-up values of each shape (none is a real credential).
  const env = {
    DB_PASS: "db-pass-Aq9x2Lm7",
    MYSQL_PWD: "mysql-pwd-Zt4k8Pq1",
    STRIPE_SK: `sk_live_${"4eC39HqLyjWDarjtT1zdp7dc"}`,
    SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T00000000/B11111111/XXXXXXXXXXXXXXXXXXXXXXXX",
    SENTRY_DSN: "https://0123456789abcdef0123456789abcdef@o123456.ingest.sentry.io/4505",
    PWD: "/home/someone/project",
    OLDPWD: "/home/someone/elsewhere",
    GIT_ASKPASS: "/usr/lib/git-core/git-gui--askpass",
    VSCODE_GIT_ASKPASS_NODE: "/usr/share/code/code",
  };

  it("takes names with PASS, PWD, DSN or WEBHOOK as secrets, but not the shell's working directory", () => {
    const secrets = secretsFromEnv(env);
    for (const name of ["DB_PASS", "MYSQL_PWD", "STRIPE_SK", "SLACK_WEBHOOK_URL", "SENTRY_DSN"] as const)
      if (name !== "STRIPE_SK") expect(secrets, name).toContain(env[name]);
    expect(secrets).not.toContain(env.PWD);
    expect(secrets).not.toContain(env.OLDPWD);
    // A program's path, though its name ends in PASS.
    expect(secrets).not.toContain(env.GIT_ASKPASS);
    expect(secrets).not.toContain(env.VSCODE_GIT_ASKPASS_NODE);
  });

  it("redacts every copy of each value, printed bare or as NAME=value, with the environment known", () => {
    const r = createRedactor(secretsFromEnv(env));
    const printed = (["DB_PASS", "MYSQL_PWD", "STRIPE_SK", "SLACK_WEBHOOK_URL", "SENTRY_DSN"] as const)
      .map((n) => `${n}=${env[n]}\n${n.toLowerCase()}: ${env[n]}\nexport ${n}="${env[n]}"\n`)
      .join("");
    const stderr = r.text(printed).text;
    const frame = r.frame(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "session/update",
        params: { update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: printed } } },
      }),
    ).text;
    for (const out of [stderr, frame]) {
      expect(() => out.startsWith("{") && JSON.parse(out)).not.toThrow();
      for (const value of Object.values(env).slice(0, 5)) expect(out).not.toContain(value);
      expect(out).not.toContain("0123456789abcdef0123456789abcdef");
      expect(out).not.toContain("XXXXXXXXXXXXXXXXXXXXXXXX");
      expect(out).not.toContain("4eC39HqLyjWDarjtT1zdp7dc");
    }
  });

  it("redacts well-known value shapes wherever they appear, without the environment", () => {
    const r = createRedactor([]);
    const cases: Array<[string, string]> = [
      [`key ${"sk_live_"}4eC39HqLyjWDarjtT1zdp7dc here`, `key ${REDACTED} here`],
      [`rk_live_${"51Hx0aBcDeFgHiJkLmNoPq"} and sk_test_${"4eC39HqLyjWDarjtT1zd"}`, `${REDACTED} and ${REDACTED}`],
      [
        "post to https://hooks.slack.com/services/T00000000/B11111111/XXXXXXXXXXXXXXXXXXXXXXXX now",
        `post to https://hooks.slack.com/services/${REDACTED} now`,
      ],
      ["xoxa-2-1234567890-abcdef and xoxp-1234567890-abcdefghij", `${REDACTED} and ${REDACTED}`],
      ["ghp_abcdefghijklmnopqrstuvwxyz0123456789", REDACTED],
      ["github_pat_11ABCDEFG0123456789_abcdefghijklmnop", REDACTED],
      ["AKIAIOSFODNN7EXAMPLE", REDACTED],
      [
        "dsn https://0123456789abcdef0123456789abcdef@o123456.ingest.sentry.io/4505",
        `dsn https://${REDACTED}@o123456.ingest.sentry.io/4505`,
      ],
      ["postgres://app:s3cr3t-pw@db:5432/x", `postgres://app:${REDACTED}@db:5432/x`],
      ["REDIS_URL=redis://:hunter2pw@cache:6379", `REDIS_URL=redis://:${REDACTED}@cache:6379`],
      ["DATABASE_URL=POSTGRES://app:s3cr3t-pw@db/x", `DATABASE_URL=POSTGRES://app:${REDACTED}@db/x`],
      // A value's shape under a name that says nothing, and in a query parameter that does not either.
      [`STRIPE_SK=sk_live_${"4eC39HqLyjWDarjtT1zdp7dc"}`, `STRIPE_SK=${REDACTED}`],
      [
        `https://h/?to=https://hooks.slack.com/services/T0/B0/abcdefghij`,
        `https://h/?to=https://hooks.slack.com/services/${REDACTED}`,
      ],
      // Secret names, quoted values.
      ["DB_PASS=\"hunter22\" MYSQL_PWD='hunter23'", `DB_PASS="${REDACTED}" MYSQL_PWD='${REDACTED}'`],
    ];
    for (const [input, expected] of cases) expect(r.text(input).text, input).toBe(expected);
    // In a frame, in JSON-escaped quotes too.
    const raw = JSON.stringify({ text: 'export DB_PASS="hunter22"' });
    expect(JSON.parse(r.frame(raw).text)).toEqual({ text: `export DB_PASS="${REDACTED}"` });
  });

  it("leaves names, hosts and ordinary URLs alone", () => {
    const r = createRedactor([]);
    for (const text of [
      "ssh://git@github.com/org/repo.git",
      "https://user@example.com/x",
      "PWD=/home/someone/project cd back",
      "https://hooks.slack.com/services/",
      "compass bypass passage passed",
      "sk_live_ is Stripe's prefix",
    ])
      expect(r.text(text), text).toEqual({ text, count: 0 });
  });

  it("redacts frame fields named pass, dsn or webhook", () => {
    const r = createRedactor([]);
    const out = JSON.parse(
      r.frame(JSON.stringify({ params: { pass: "p4ss-w0rd", sentryDsn: "x-y-z", webhookUrl: "u" } })).text,
    );
    expect(out.params).toEqual({ pass: REDACTED, sentryDsn: REDACTED, webhookUrl: REDACTED });
  });
});

describe("secrets a JSON writer escaped (fresh review of issue #34)", () => {
  it("redacts a secret or a credential shape spelled with JSON escapes in a frame", () => {
    const r = createRedactor(["pässwort-geheim-1", "hunter2hunter2"]);
    const go = String.raw`{"u":"https://api.example/x?a=1\u0026access_token=abcdef123456"}`; // Go escapes & < >
    for (const line of [
      String.raw`{"a":"p\u00e4sswort-geheim-1"}`, // Python's json.dumps: non-ASCII as \u escapes
      String.raw`{"a":"hunter2\u0068unter2"}`,
      String.raw`{"a":"sk\u005flive_abcdefghijklmnopqrstu"}`,
      String.raw`{"a":"https:\/\/user:secretpass@db.example\/x"}`, // PHP escapes /
      String.raw`{"a":"hooks.slack.com\/services\/T000\/B000\/XXXXXXXXXXXXXXXX"}`,
      go,
    ]) {
      const out = r.frame(line);
      const decoded = JSON.stringify(JSON.parse(out.text));
      for (const secret of [
        "sswort-geheim",
        "hunter2h",
        "abcdefghijklmnopqrstu",
        "secretpass",
        "XXXXXXXX",
        "abcdef123456",
      ])
        expect(decoded, line).not.toContain(secret);
      expect(out.count, line).toBeGreaterThan(0);
    }
    // The rest stays: an escaped line without secrets is left byte for byte.
    const clean = String.raw`{"a":"caf\u00e9 \/ \n"}`;
    expect(r.frame(clean)).toEqual({ text: clean, count: 0 });
  });

  it("walks a frame nested as deep as JSON.parse reads without overflowing, and keeps a __proto__ key", () => {
    const r = createRedactor([]);
    const deep = `{"params":{"token":"abc12345","deep":${"[".repeat(50_000)}${"]".repeat(50_000)}}}`;
    const out = r.frame(deep);
    expect(out.count).toBe(1);
    expect(out.text).toBe(deep.replace("abc12345", REDACTED));
    const proto = '{"apiKey":"abc12345","__proto__":{"x":1}}';
    expect(JSON.parse(r.frame(proto).text)).toEqual(JSON.parse(`{"apiKey":"${REDACTED}","__proto__":{"x":1}}`));
  });
});

describe("secrets in other encodings (fresh review of issue #34)", () => {
  it("redacts an environment secret percent-encoded in a URL, and HTTP Basic credentials", () => {
    const r = createRedactor(["s3cr3t+/value=="]);
    const url = r.text("GET https://api.example/x?q=s3cr3t%2B%2Fvalue%3D%3D&page=2");
    expect(url.text).not.toContain("s3cr3t");
    expect(url.text).toContain("&page=2");
    const frame = r.frame('{"url":"https://api.example/x?q=s3cr3t%2B%2Fvalue%3D%3D"}');
    expect(frame.text).toBe('{"url":"https://api.example/x?q=[REDACTED]"}');
    // curl -v prints it; so does a proxy log.
    const basic = r.text("> Authorization: Basic dXNlcjpodW50ZXIyaHVudGVyMg==\n");
    expect(basic.text).toBe("> Authorization: Basic [REDACTED]\n");
    // Prose is left alone.
    expect(r.text("Basic authentication is supported").count).toBe(0);
  });
});
