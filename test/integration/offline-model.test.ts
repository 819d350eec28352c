/**
 * The first run without an account: the real Gemini CLI (profile gemini-offline)
 * talking to the offline model this process serves. No fake API is scripted:
 * what the user types decides what the agent does.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineGeminiHome } from "../../server/models/offline-model";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

let relay: TestRelay;
let workspace: string;
let client: TestClient | undefined;

beforeAll(async () => {
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-offline-")));
  relay = await startTestRelay({ workspaceRoots: [workspace], graceMs: 0 });
});
afterAll(async () => {
  client?.close();
  await relay?.close();
  rmSync(workspace, { recursive: true, force: true });
});

const textOf = (c: TestClient, fromSeq: number) =>
  c.frames
    .filter((f) => f.seq > fromSeq && (f.message as any)?.params?.update?.sessionUpdate === "agent_message_chunk")
    .map((f) => (f.message as any).params.update.content.text)
    .join("");

describe("Gemini CLI with the offline model", () => {
  it("leaves no home behind when a start is refused", async () => {
    const c = new TestClient(relay.url, { token: "test-token" });
    try {
      await c.connected();
      const refused = await c.emit("agent:start", { profile: "gemini-offline", cwd: tmpdir() });
      expect(refused).toMatchObject({ ok: false });
      expect(readdirSync(offlineGeminiHome(relay.config.dataDir))).toEqual([]);
    } finally {
      c.close();
    }
  });

  it("asks before writing what the user typed, writes it in the workspace, then runs a command", async () => {
    client = new TestClient(relay.url, { token: "test-token" });
    await client.connected();
    const c = client;
    // What an earlier version left: the one shared home, with a conversation in it.
    const homes = offlineGeminiHome(relay.config.dataDir);
    const leftover = path.join(homes, ".gemini", "tmp", "0f1e2d", "chats");
    mkdirSync(leftover, { recursive: true });
    writeFileSync(path.join(leftover, "session-1.json"), "{}");
    const agent = await c.start({ profile: "gemini-offline" });
    expect(path.basename(agent.command)).toBe("gemini");
    // Its home is the run's own in the data directory, never the user's; the leftover is gone.
    const [home, ...others] = readdirSync(homes);
    expect(others).toEqual([]);
    expect(existsSync(path.join(homes, home!, ".gemini", "settings.json"))).toBe(true);
    await c.initialize({ fs: { readTextFile: false, writeTextFile: false } });
    const sessionId = await c.newSession(workspace);

    const prompt = async (id: number, text: string) =>
      c.send({ jsonrpc: "2.0", id, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text }] } });

    await prompt(3, "write hello.txt saying hi from the offline model");
    const ask = await c.frame((f) => f.method === "session/request_permission" && f.kind === "request", "permission");
    expect(existsSync(path.join(workspace, "hello.txt"))).toBe(false);
    const allowOnce = (ask.message as any).params.options.find((o: any) => o.kind === "allow_once").optionId;
    await c.send({ jsonrpc: "2.0", id: ask.id, result: { outcome: { outcome: "selected", optionId: allowOnce } } });
    expect((await c.response(3)).message).toMatchObject({ result: { stopReason: "end_turn" } });
    expect(readFileSync(path.join(workspace, "hello.txt"), "utf8")).toBe("hi from the offline model\n");
    expect(textOf(c, ask.seq)).toContain("Wrote `hello.txt`");

    const before = c.frames.at(-1)!.seq;
    await prompt(4, "run ls");
    expect((await c.response(4)).message).toMatchObject({ result: { stopReason: "end_turn" } });
    const ran = c.frames.find(
      (f) => f.seq > before && (f.message as any)?.params?.update?.sessionUpdate === "tool_call",
    );
    expect((ran!.message as any).params.update.kind).toBe("execute");
    expect(textOf(c, before)).toMatch(/`ls` printed:\n\n```\n(.*\s)?hello\.txt/);

    // Gemini CLI kept the conversation in its home; stopping the agent removes the home with it.
    expect(readdirSync(path.join(homes, home!, ".gemini", "tmp")).length).toBeGreaterThan(0);
    expect((await c.emit("agent:stop", {})).ok).toBe(true);
    await c.waitFor(() => c.exits.length > 0, "exit");
    expect(readdirSync(homes)).toEqual([]);
    // The happy path is quiet: every JSON call (the CLI's routing classifier) got an answer its schema accepts.
    expect(c.stderr.join("")).not.toMatch(/ZodError|Routing\].*failed/);
  });
});
