/**
 * Qwen Code and Claude's ACP adapter (pinned in test/agents) with `"model": "offline"`: the relay
 * serves the offline model in each agent's API (chat completions, Messages) and points the agent
 * at it. Nothing is scripted: what the user types decides what the agent does.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CLIENT_CAPABILITIES } from "../../lib/protocol/client-capabilities";
import { parseProfile } from "../../server/config";
import { offlineHome } from "../../server/models/offline-model";
import { startTestRelay, type TestRelay } from "../relay-harness";
import { AgentClient, resultOf } from "./agent-relay";

const bin = (name: string) => path.resolve(import.meta.dirname, "node_modules", ".bin", name);
// Qwen Code takes 7-14 s to initialize on a loaded 2-core machine.
const JOURNEY_MS = 180_000;

interface OfflineCase {
  agent: "qwen" | "claude";
  name: string;
  /** The profile as a user writes it in the config file. */
  profile: Record<string, unknown>;
  /** The file the agent's home holds once the relay prepared it. */
  homeFile: string;
}

const CASES: OfflineCase[] = [
  {
    agent: "qwen",
    name: "Qwen Code (OpenAI chat completions)",
    profile: { command: bin("qwen"), args: ["--acp"], model: "offline" },
    homeFile: ".qwen/settings.json",
  },
  {
    agent: "claude",
    name: "Claude's ACP adapter (Anthropic Messages)",
    profile: { command: bin("claude-agent-acp"), model: "offline" },
    homeFile: ".claude",
  },
];

/** The agent's message text streamed after frame `seq`. */
const messageSince = (c: AgentClient, seq: number) =>
  c
    .updates("agent_message_chunk")
    .filter((f) => f.seq > seq)
    .map((f) => (f.message as any).params.update.content?.text ?? "")
    .join("");

for (const spec of CASES) {
  describe(`${spec.name} with the offline model`, () => {
    let relay: TestRelay;
    let workspace: string;
    let client: AgentClient | undefined;

    beforeAll(async () => {
      workspace = realpathSync(mkdtempSync(path.join(tmpdir(), `acp-offline-${spec.agent}-`)));
      relay = await startTestRelay({
        workspaceRoots: [workspace],
        graceMs: 0,
        killGraceMs: 3_000,
        profiles: { [spec.agent]: parseProfile(spec.agent, spec.profile, "agents.config.json", workspace) },
        defaultProfile: spec.agent,
      });
    });
    afterAll(async () => {
      client?.close();
      await relay?.close();
      rmSync(workspace, { recursive: true, force: true });
    });

    it(
      "a typed write asks for permission, the answer lets it write the file in the workspace; a read and a command show what they found",
      async () => {
        client = new AgentClient(relay.url, { token: "test-token" });
        await client.connected();
        const c = client;
        // The agent writes through the client when it can (Qwen Code): the relay serves the workspace.
        await c.emit("policy:set", { policies: { "fs/read_text_file": "auto", "fs/write_text_file": "auto" } });
        await c.start({ profile: spec.agent });
        // Its home is the run's own in the data directory, never the user's nor the test's.
        const homes = offlineHome(relay.config.dataDir, spec.agent);
        expect(readdirSync(homes).map((home) => existsSync(path.join(homes, home, spec.homeFile)))).toEqual([true]);
        resultOf(
          await c.request(
            "initialize",
            { protocolVersion: 1, clientCapabilities: DEFAULT_CLIENT_CAPABILITIES },
            90_000,
          ),
        );
        const { sessionId } = resultOf(await c.request("session/new", { cwd: workspace, mcpServers: [] }, 90_000)) as {
          sessionId: string;
        };

        const id = await c.sendRequest("session/prompt", {
          sessionId,
          prompt: [{ type: "text", text: "write hello.txt saying hi" }],
        });
        const ask = await c.frame(
          (f) => f.kind === "request" && f.method === "session/request_permission",
          "permission request",
          90_000,
        );
        expect(existsSync(path.join(workspace, "hello.txt"))).toBe(false);
        const options = (ask.message as any).params.options as Array<{ optionId: string; kind: string }>;
        const allowOnce = options.find((o) => o.kind === "allow_once")!.optionId;
        await c.send({ jsonrpc: "2.0", id: ask.id, result: { outcome: { outcome: "selected", optionId: allowOnce } } });
        const done = await c.response(id, 90_000);
        expect(done.message, JSON.stringify(c.stderr).slice(-2000)).toMatchObject({
          result: { stopReason: "end_turn" },
        });
        expect(readFileSync(path.join(workspace, "hello.txt"), "utf8")).toBe("hi\n");
        // The model streamed its plan, then its answer to the tool's result.
        expect(c.messageText()).toContain("I will write `hello.txt`.");
        expect(c.messageText()).toContain("Wrote `hello.txt` in the workspace.");
        const thought = c
          .updates("agent_thought_chunk")
          .map((f) => (f.message as any).params.update.content.text)
          .join("");
        // Its thought too: `reasoning_content` for Qwen Code, a thinking block (Claude Code asks for them).
        expect(thought).toMatch(/^\*\*Planning the write\*\*/);

        // A read needs no permission: the model shows what the agent's tool read.
        const before = c.frames.at(-1)!.seq;
        const read = await c.request(
          "session/prompt",
          { sessionId, prompt: [{ type: "text", text: "read hello.txt" }] },
          90_000,
        );
        expect(resultOf(read)).toMatchObject({ stopReason: "end_turn" });
        expect(messageSince(c, before)).toContain("`hello.txt` says:\n\n```\nhi\n```");

        // A command: whatever the agent asks first is allowed by the relay's policy; the model shows its output.
        await c.emit("policy:set", { policies: { "session/request_permission": "auto" } });
        const from = c.frames.at(-1)!.seq;
        const ran = await c.request(
          "session/prompt",
          { sessionId, prompt: [{ type: "text", text: "run ls" }] },
          90_000,
        );
        expect(resultOf(ran)).toMatchObject({ stopReason: "end_turn" });
        expect(messageSince(c, from)).toContain("`ls` printed:\n\n```\nhello.txt\n```");
      },
      JOURNEY_MS,
    );
  });
}
