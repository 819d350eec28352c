/**
 * An agent host with a real stdio agent that asks for `sh -c 'id > FILE'`
 * (the stub in "shell" mode): what the client's initialize did not advertise
 * is refused whatever the policy (issue 20).
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AgentDriver } from "./agent-driver";
import { AgentHost } from "./agent-host";
import { testHost } from "../../test/host-harness";

const stub = path.resolve(import.meta.dirname, "../../test/fixtures/stub-agent.mjs");
const base = realpathSync(mkdtempSync(path.join(tmpdir(), "agent-host-stdio-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A session whose agent asks for `sh -c 'id > FILE'` in every turn, its terminal requests under auto. */
function shellSession(file: string) {
  const session = testHost(base, {
    shell: { command: process.execPath, args: [stub, "shell", `id > ${file}`], env: {} },
  }).host;
  const auto = ["create", "wait_for_exit", "output", "release"].map((m) => [`terminal/${m}`, "auto" as const]);
  session.answerer.setPolicies(Object.fromEntries(auto));
  return session;
}

/** Starts the agent, initializes it advertising `terminal` (undefined: no initialize) and runs one turn. */
async function run(session: AgentHost, terminal: boolean | undefined) {
  const driver = new AgentDriver(session);
  try {
    expect((await session.start({ profile: "shell", cwd: base })).ok).toBe(true);
    if (terminal !== undefined)
      await driver.request("initialize", {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal },
      });
    await driver.request("session/new", { cwd: base, mcpServers: [] });
    const reply = await driver.request(
      "session/prompt",
      { sessionId: "terminal-session", prompt: [{ type: "text", text: "go" }] },
      { timeoutMs: 10_000 },
    );
    return reply.frame?.message as { result?: unknown; error?: { code: number; message: string } };
  } finally {
    driver.close();
    await session.stop();
  }
}

const turn = (file: string, terminal: boolean) => run(shellSession(file), terminal);

describe("a live session and the capabilities its client advertised", () => {
  it("refuses terminal/create under auto when initialize advertised terminal: false; nothing runs", async () => {
    const file = path.join(base, "refused");
    const answer = await turn(file, false);
    // The stub ends its turn with the error the relay gave it.
    expect(answer.error).toMatchObject({
      code: -32601,
      message: expect.stringContaining("clientCapabilities.terminal"),
    });
    expect(existsSync(file)).toBe(false);
  });

  it("runs it when terminal: true was advertised (so the refusal above is the capability's)", async () => {
    const file = path.join(base, "ran");
    expect((await turn(file, true)).result).toBeDefined();
    expect(existsSync(file)).toBe(true);
  });
});

describe("a new agent of the same session", () => {
  it("starts with nothing advertised: the last agent's initialize does not carry over", async () => {
    const file = path.join(base, "carried-over");
    const session = shellSession(file);
    expect((await run(session, true)).result).toBeDefined();
    rmSync(file);
    // The next agent is never initialized: its terminal request is refused.
    expect((await run(session, undefined)).error).toMatchObject({ code: -32601 });
    expect(existsSync(file)).toBe(false);
  });
});
