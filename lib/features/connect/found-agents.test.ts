import { describe, expect, it } from "vitest";
import { agentServersOf, freeName, MAX_ENTRIES, parseJsonc, profileNameFor, viewOf } from "./found-agents";

describe("agents found in other clients' files", () => {
  it("reads JSON with comments and trailing commas, leaving strings alone", () => {
    const text = `// Zed settings
    {
      /* agents */
      "agent_servers": {
        "My Agent": { "command": "my-agent", "args": ["--acp", "http://x//y", "/* not a comment */",], }, // trailing
      },
      "theme": "a \\" // quoted",
    }`;
    const parsed = parseJsonc(text);
    expect(parsed).toEqual({
      ok: true,
      value: {
        agent_servers: { "My Agent": { command: "my-agent", args: ["--acp", "http://x//y", "/* not a comment */"] } },
        theme: 'a " // quoted',
      },
    });
    expect(parseJsonc("{ /* open").ok).toBe(false);
    expect(parseJsonc("{ nope }")).toMatchObject({ ok: false, error: expect.stringMatching(/^not valid JSON/) });
    expect(parseJsonc('{"a": "unterminated').ok).toBe(false);
  });

  it("turns custom entries into command profiles and agent.json entries into registry profiles", () => {
    const found = agentServersOf("zed", {
      agent_servers: {
        "My Agent": { type: "custom", command: "/opt/my-agent", args: ["--acp"], env: { MY_API_KEY: "sk-x" } },
        plain: { command: "plain-agent" },
        claude: { default_mode: "plan" },
        "from-registry": { type: "registry" },
        pasted: { name: "Pasted", version: "1.0.0", distribution: { npx: { package: "@x/pasted" } } },
      },
    });
    expect(found.ok).toBe(true);
    const [mine, plain, claude, registry, pasted] = found.ok ? found.value : [];
    expect(mine).toMatchObject({
      profile: "My-Agent",
      entry: { command: "/opt/my-agent", args: ["--acp"], env: { MY_API_KEY: "sk-x" } },
    });
    expect(plain!.entry).toEqual({ command: "plain-agent", args: [], description: "plain (from Zed)" });
    expect(claude!.entry).toBeUndefined();
    expect(claude!.reason).toMatch(/Zed installs and runs this agent itself \(built in/);
    expect(registry!.reason).toMatch(/from the ACP registry/);
    expect(pasted!.entry).toMatchObject({ distribution: { npx: { package: "@x/pasted" } }, name: "Pasted" });
    // The page never sees an env value.
    const view = viewOf(mine!, "/home/u/.config/zed/settings.json");
    expect(JSON.stringify(view)).not.toContain("sk-x");
    expect(view.env).toEqual(["MY_API_KEY"]);
  });

  it("refuses a command named by a relative path: it would run a file of the workspace", () => {
    const found = agentServersOf("zed", {
      agent_servers: {
        dot: { command: "./codex-acp" },
        sub: { command: "bin/agent", args: ["--acp"] },
        win: { command: "agents\\codex-acp.exe" },
        binary: {
          distribution: {
            binary: { "linux-x86_64": { cmd: "./codex-acp" }, "darwin-aarch64": { cmd: "/opt/codex-acp" } },
          },
        },
        npx: { distribution: { npx: { package: "codex-acp", cmd: "../codex-acp" } } },
        absolute: { command: "/opt/agent" },
        windows: { command: "C:\\agents\\agent.exe" },
        bare: { command: "codex-acp" },
        registry: { distribution: { binary: { "linux-x86_64": { cmd: "/opt/codex-acp" } }, npx: { package: "x" } } },
      },
    });
    const agents = found.ok ? found.value : [];
    for (const [name, cmd] of [
      ["dot", "./codex-acp"],
      ["sub", "bin/agent"],
      ["win", "agents\\codex-acp.exe"],
      ["binary", "./codex-acp"],
      ["npx", "../codex-acp"],
    ]) {
      const agent = agents.find((a) => a.name === name)!;
      expect(agent.entry, name).toBeUndefined();
      expect(agent.reason).toBe(
        `its command ${cmd} is a relative path (relative to where the editor installed it, which the playground does not know; it would run a file of the workspace): add it by its absolute path`,
      );
    }
    for (const name of ["absolute", "windows", "bare", "registry"])
      expect(agents.find((a) => a.name === name)!.entry, name).toBeDefined();
  });

  it("skips odd types with a reason and never throws", () => {
    const odd = agentServersOf("jetbrains", {
      agent_servers: {
        a: "text",
        b: { command: 42 },
        c: { command: "x", args: "--acp" },
        d: { command: "x", args: [1] },
        e: { command: "x", env: { K: 1 } },
        f: { command: "x", env: [] },
        g: null,
        h: { command: "x".repeat(10_000) },
      },
    });
    expect(odd.ok && odd.value.map((a) => a.reason)).toEqual([
      "not an object",
      '"command" is not a string',
      '"args" is not a list of strings',
      '"args" is not a list of strings',
      '"env" is not an object of strings',
      '"env" is not an object of strings',
      "not an object",
      '"command" is not a string',
    ]);
    expect(agentServersOf("zed", [])).toEqual({ ok: false, error: "the file is not a JSON object" });
    expect(agentServersOf("zed", { agent_servers: [1] })).toEqual({
      ok: false,
      error: '"agent_servers" is not an object',
    });
    expect(agentServersOf("zed", { theme: "x" })).toEqual({ ok: true, value: [] });
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`a${i}`, { command: "x" }]));
    const capped = agentServersOf("zed", { agent_servers: many });
    expect(capped.ok && capped.value.length).toBe(MAX_ENTRIES);
  });

  it("names profiles by the config file's rule, without taking one in use", () => {
    expect(profileNameFor("Claude Code (beta)")).toBe("Claude-Code-beta");
    expect(profileNameFor("💥")).toBe("agent");
    expect(profileNameFor("x".repeat(100))).toHaveLength(64);
    expect(freeName("qwen", (n) => ["qwen", "qwen-2"].includes(n))).toBe("qwen-3");
    expect(freeName("new", () => false)).toBe("new");
  });
});
