import { describe, expect, it } from "vitest";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import {
  canAuthenticate,
  checkUserEnv,
  CREDENTIAL_ENV_NAME,
  describeAuthMethod,
  describeAuthMethods,
  initializeAuthMethods,
  isProtectedEnvName,
  missingEnvVars,
  parseAuthMethods,
  refusedEnvName,
  shellQuote,
  terminalAuthCommand,
  type AuthMethodView,
} from "./auth-methods";

const envMethod = (vars: unknown[]): AuthMethodView =>
  parseAuthMethods({ authMethods: [{ id: "key", name: "API key", type: "env_var", vars }] })[0]!;

describe("parseAuthMethods", () => {
  it("reads the three types, with what each needs", () => {
    const methods = parseAuthMethods({
      authMethods: [
        { id: "chatgpt", name: "ChatGPT login", description: "opens a browser" },
        { id: "openai-key", name: "OpenAI key", type: "env_var", vars: [{ name: "OPENAI_API_KEY", label: "Key" }] },
        { id: "old-key", name: "Old key", type: "env_var", varName: "CODEX_API_KEY", link: "https://example.com" },
        { id: "login", name: "Log in", type: "terminal", args: ["--login"], env: { MODE: "tui", BAD: 1 } },
      ],
    });
    expect(methods).toEqual([
      { id: "chatgpt", name: "ChatGPT login", description: "opens a browser", type: "agent" },
      {
        id: "openai-key",
        name: "OpenAI key",
        type: "env_var",
        vars: [{ name: "OPENAI_API_KEY", label: "Key", secret: true, optional: false }],
      },
      {
        id: "old-key",
        name: "Old key",
        type: "env_var",
        vars: [{ name: "CODEX_API_KEY", secret: true, optional: false }],
        link: "https://example.com",
      },
      { id: "login", name: "Log in", type: "terminal", terminal: { args: ["--login"], env: { MODE: "tui" } } },
    ]);
    expect(methods.map(canAuthenticate)).toEqual([true, true, true, false]);
  });

  it("keeps an env_var method's link only when it is an http(s) address", () => {
    const links = ["javascript:alert(1)", "data:text/html,x", "https://example.com/key"].map(
      (link) => parseAuthMethods({ authMethods: [{ id: "k", type: "env_var", varName: "X_API_KEY", link }] })[0],
    );
    expect(links.map((m) => (m?.type === "env_var" ? m.link : "?"))).toEqual([
      undefined,
      undefined,
      "https://example.com/key",
    ]);
  });

  it("keeps a legacy terminal hint in _meta (Qwen Code's shape, and terminal-auth)", () => {
    const [qwen, legacy] = parseAuthMethods({
      authMethods: [
        { id: "openai", name: "Use OpenAI API key", _meta: { type: "terminal", args: ["--auth-type=openai"] } },
        { id: "l", name: "L", _meta: { "terminal-auth": { command: "agent-login", args: ["x"], label: "Sign in" } } },
      ],
    });
    expect(qwen).toMatchObject({ type: "agent", terminal: { args: ["--auth-type=openai"] } });
    expect(legacy).toMatchObject({
      type: "agent",
      terminal: { command: "agent-login", args: ["x"], label: "Sign in" },
    });
  });

  it("skips what it cannot use and bounds what it keeps", () => {
    expect(parseAuthMethods(undefined)).toEqual([]);
    expect(parseAuthMethods({ authMethods: "x" })).toEqual([]);
    expect(parseAuthMethods({ authMethods: [null, 1, { name: "no id" }, { id: "" }] })).toEqual([]);
    expect(parseAuthMethods({ authMethods: [{ id: "x" }] })).toEqual([{ id: "x", name: "x", type: "agent" }]);
    expect(parseAuthMethods({ authMethods: Array.from({ length: 100 }, (_, i) => ({ id: `m${i}` })) })).toHaveLength(
      32,
    );
    expect(envMethod([{ name: "OK_1" }, { name: "bad name" }, { name: "1X" }, "str", { name: 3 }])).toMatchObject({
      vars: [{ name: "OK_1" }],
    });
    expect(envMethod([{ name: "A", secret: false, optional: true }])).toMatchObject({
      vars: [{ name: "A", secret: false, optional: true }],
    });
  });
});

describe("initializeAuthMethods", () => {
  it("reads the methods of the agent's answer to initialize, keeping _meta as sent; nothing from other frames", () => {
    const seq = new FrameSequencer();
    const request = seq.line("to-agent", JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} }));
    const methods = [{ id: "gateway", name: "Gateway", _meta: { gateway: { protocol: "google" } } }];
    const answer = seq.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: 0, result: { authMethods: methods } }));
    expect(initializeAuthMethods(request)).toBeUndefined();
    expect(initializeAuthMethods(answer)).toEqual([
      { id: "gateway", name: "Gateway", type: "agent", _meta: { gateway: { protocol: "google" } } },
    ]);
    seq.line("to-agent", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }));
    const failed = seq.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -1, message: "x" } }));
    expect(initializeAuthMethods(failed)).toEqual([]);
    const other = seq.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: 5, result: { authMethods: methods } }));
    expect(initializeAuthMethods(other)).toBeUndefined();
  });
});

describe("env_var helpers", () => {
  const m = envMethod([{ name: "OPENAI_API_KEY" }, { name: "OPENAI_ORG", optional: true }]);

  it("says which required variables neither the profile nor the server provides", () => {
    expect(missingEnvVars(m, [])).toEqual([{ name: "OPENAI_API_KEY", secret: true, optional: false }]);
    expect(missingEnvVars(m, new Set(["OPENAI_API_KEY"]))).toEqual([]);
    expect(missingEnvVars(parseAuthMethods({ authMethods: [{ id: "a" }] })[0]!, [])).toEqual([]);
  });

  it("accepts only the variables the agent named, with one-line values", () => {
    expect(checkUserEnv(m, { OPENAI_API_KEY: "sk-1" })).toEqual({ ok: true, value: { OPENAI_API_KEY: "sk-1" } });
    expect(checkUserEnv(m, { OPENAI_API_KEY: "sk-1", OPENAI_ORG: "" })).toEqual({
      ok: true,
      value: { OPENAI_API_KEY: "sk-1" },
    });
    expect(checkUserEnv(m, {})).toEqual({ ok: false, error: "missing OPENAI_API_KEY" });
    expect(checkUserEnv(m, { OTHER: "x", OPENAI_API_KEY: "k" })).toMatchObject({ error: /OTHER is not a variable/ });
    expect(checkUserEnv(m, { OPENAI_API_KEY: "a\nb" })).toMatchObject({ error: /one line/ });
    expect(checkUserEnv(m, { OPENAI_API_KEY: "x".repeat(9_000) })).toMatchObject({ error: /too long/ });
    expect(checkUserEnv(m, { "A=B": "x" })).toMatchObject({ error: /not a variable name/ });
    expect(checkUserEnv(parseAuthMethods({ authMethods: [{ id: "a" }] })[0]!, {})).toMatchObject({ ok: false });
  });

  it("never lets a loader or runtime variable through, even when the agent names it", () => {
    const hostile = envMethod(
      ["NODE_OPTIONS", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "PATH", "HOME"].map((name) => ({ name })),
    );
    for (const name of ["NODE_OPTIONS", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "PATH", "HOME", "node_options"]) {
      expect(isProtectedEnvName(name)).toBe(true);
      expect(checkUserEnv(hostile, { [name]: "x" })).toMatchObject({ ok: false, error: /loader or runtime/ });
    }
    for (const name of ["LD_LIBRARY_PATH", "NODE_PATH", "BASH_ENV", "ACP_PLAYGROUND_TOKEN"])
      expect(isProtectedEnvName(name)).toBe(true);
    expect(isProtectedEnvName("OPENAI_API_KEY")).toBe(false);
    expect(isProtectedEnvName("GEMINI_API_KEY")).toBe(false);
  });

  // Each of these, named by an agent and typed by a user, runs a command or loads code:
  // GIT_CONFIG_* set core.fsmonitor (run on `git status`), EDITOR/PAGER/BROWSER are run,
  // OPENSSL_CONF loads engines, GLIBC_TUNABLES (CVE-2023-4911), PYTHONHOME, XDG_CONFIG_HOME
  // move every tool's configuration, ESBUILD_BINARY_PATH is executed.
  const DANGEROUS = [
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_KEY_0",
    "GIT_CONFIG_VALUE_0",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "BROWSER",
    "OPENSSL_CONF",
    "GLIBC_TUNABLES",
    "PYTHONHOME",
    "XDG_CONFIG_HOME",
    "ESBUILD_BINARY_PATH",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "LESSOPEN",
    "CURL_HOME",
    "SSLKEYLOGFILE",
    "AWS_SHARED_CREDENTIALS_FILE",
    "http_proxy",
  ];

  it("refuses every name that does not look like a credential, even when the agent names it", () => {
    const hostile = envMethod(DANGEROUS.map((name) => ({ name, optional: true })));
    for (const name of DANGEROUS) {
      const checked = checkUserEnv(hostile, { [name]: "x" });
      expect(checked, name).toMatchObject({ ok: false, error: expect.stringContaining(name) });
      expect(refusedEnvName(name), name).toBeDefined();
      expect(CREDENTIAL_ENV_NAME.test(name), name).toBe(false);
    }
    expect(checkUserEnv(hostile, { EDITOR: "sh -c 'id > /tmp/x'" })).toEqual({
      ok: false,
      error: "EDITOR is a loader or runtime variable: never set",
    });
    expect(checkUserEnv(envMethod([{ name: "MY_EDITOR_CMD" }]), { MY_EDITOR_CMD: "vim" })).toEqual({
      ok: false,
      error:
        "MY_EDITOR_CMD does not look like a credential (capitals ending in _API_KEY, _KEY, _TOKEN, _SECRET, _PASSWORD, _CREDENTIALS, ...): only credentials are set",
    });
    // The denylist stays, as defence in depth, also for credential-shaped names.
    for (const name of ["GIT_CONFIG_KEY", "NODE_AUTH_TOKEN", "ACP_PLAYGROUND_TOKEN", "XDG_SESSION_KEY"])
      expect(refusedEnvName(name), name).toMatch(/loader or runtime/);
  });

  it("accepts the credentials agents really name", () => {
    const real = [
      "GEMINI_API_KEY",
      "GOOGLE_API_KEY",
      "OPENAI_API_KEY",
      "ANTHROPIC_API_KEY",
      "CODEX_API_KEY",
      "AZURE_OPENAI_API_KEY",
      "OPENROUTER_APIKEY",
      "GITHUB_TOKEN",
      "GH_TOKEN",
      "HF_TOKEN",
      "ANTHROPIC_AUTH_TOKEN",
      "CLAUDE_CODE_OAUTH_TOKEN",
      "AWS_ACCESS_KEY_ID",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_SESSION_TOKEN",
      "CLIENT_SECRET",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "PGPASSWORD",
      "STUB_LOGIN",
    ];
    const method = envMethod(real.map((name) => ({ name, optional: true })));
    for (const name of real) {
      expect(refusedEnvName(name), name).toBeUndefined();
      expect(checkUserEnv(method, { [name]: "value-1" }), name).toEqual({ ok: true, value: { [name]: "value-1" } });
    }
    // Capitals only: the names are a convention, and a lower-case one is not one of them.
    expect(refusedEnvName("openai_api_key")).toMatch(/does not look like a credential/);
  });

  it("still accepts an empty value for a named variable that is not a credential: nothing is set", () => {
    expect(checkUserEnv(m, { OPENAI_API_KEY: "sk-1", OPENAI_ORG: "" })).toEqual({
      ok: true,
      value: { OPENAI_API_KEY: "sk-1" },
    });
    expect(checkUserEnv(m, { OPENAI_API_KEY: "sk-1", OPENAI_ORG: "org-1" })).toMatchObject({
      ok: false,
      error: /^OPENAI_ORG does not look like a credential/,
    });
  });
});

describe("terminal login command", () => {
  const profile = { command: "/usr/bin/agent", args: ["--acp"] };

  it("is the profile's command with the method's args and env, quoted for a shell", () => {
    const [t] = parseAuthMethods({
      authMethods: [{ id: "t", name: "T", type: "terminal", args: ["--login", "it's"], env: { MODE: "a b" } }],
    });
    expect(terminalAuthCommand(t!, profile)).toEqual({
      argv: ["/usr/bin/agent", "--acp", "--login", "it's"],
      env: { MODE: "a b" },
      line: `MODE='a b' /usr/bin/agent --acp --login 'it'\\''s'`,
    });
  });

  it("Claude's ACP adapter's real method: the schema's type and args win over its _meta hint", () => {
    const [claude] = parseAuthMethods({
      authMethods: [
        {
          description: "Run `claude /login` in the terminal",
          name: "Log in with Claude",
          id: "claude-login",
          type: "terminal",
          args: ["--cli"],
          _meta: {
            "terminal-auth": {
              command: "/usr/bin/node",
              args: ["/x/claude-agent-acp", "--cli"],
              label: "Claude Login",
            },
          },
        },
      ],
    });
    expect(terminalAuthCommand(claude!, { command: "/bin/claude-agent-acp", args: [] })?.line).toBe(
      "/bin/claude-agent-acp --cli",
    );
    expect(claude).toMatchObject({ terminal: { label: "Claude Login" } });
  });

  it("uses a command the agent names in the legacy hint; none for methods without one", () => {
    const [legacy, plain, env] = parseAuthMethods({
      authMethods: [
        { id: "l", _meta: { "terminal-auth": { command: "agent-login", args: ["--web"] } } },
        { id: "p" },
        { id: "e", type: "env_var", vars: [{ name: "K" }] },
      ],
    });
    expect(terminalAuthCommand(legacy!, profile)?.line).toBe("agent-login --web");
    expect(terminalAuthCommand(plain!, profile)).toBeUndefined();
    expect(terminalAuthCommand(env!, profile)).toBeUndefined();
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("$(rm -rf /)")).toBe("'$(rm -rf /)'");
  });
});

it("describeAuthMethod names the type and what it needs", () => {
  const [a, e, t] = parseAuthMethods({
    authMethods: [
      { id: "a", name: "Agent" },
      { id: "e", name: "Key", type: "env_var", vars: [{ name: "K1" }, { name: "K2" }] },
      { id: "t", name: "Term", type: "terminal" },
    ],
  });
  expect([a, e, t].map((m) => describeAuthMethod(m!))).toEqual([
    "Agent (a) — agent: the agent authenticates itself",
    "Key (e) — env_var: set K1, K2",
    "Term (t) — terminal: run a login command",
  ]);
});

it("describeAuthMethods says what methods of one kind need once (Gemini's four of type agent)", () => {
  const methods = parseAuthMethods({
    authMethods: [
      { id: "oauth-personal", name: "Log in with Google" },
      { id: "gemini-api-key", name: "Gemini API key" },
      { id: "e", name: "Key", type: "env_var", vars: [{ name: "K1" }] },
      { id: "t", name: "Term", type: "terminal" },
    ],
  });
  expect(describeAuthMethods(methods)).toBe(
    "Log in with Google (oauth-personal), Gemini API key (gemini-api-key) — agent: the agent authenticates itself; " +
      "Key (e) — env_var: set K1; Term (t) — terminal: run a login command",
  );
  expect(describeAuthMethods(methods.slice(2))).toBe(
    "Key (e) — env_var: set K1; Term (t) — terminal: run a login command",
  );
});
