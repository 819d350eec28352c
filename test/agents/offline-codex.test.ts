/**
 * Codex's app-server (pinned in test/agents) with `"model": "offline"`: the relay serves the offline
 * model as a Responses API and gives Codex a CODEX_HOME naming it. Nothing is scripted: a typed
 * write becomes a command Codex asks approval for, and the file is written once it is accepted.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAppServerHandshake, runAppServerTurn } from "../../lib/features/protocols/codex-app-server/handshake";
import type { Frame } from "../../lib/protocol/frame";
import { parseProfile } from "../../server/config";
import { offlineHome } from "../../server/models/offline-model";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";
import { portOf } from "./codex-rig";

let relay: TestRelay;
let workspace: string;
let client: TestClient | undefined;

beforeAll(async () => {
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-offline-codex-")));
  const profile = {
    command: path.resolve(import.meta.dirname, "node_modules", ".bin", "codex"),
    args: ["app-server"],
    protocol: "codex-app-server",
    model: "offline",
  };
  relay = await startTestRelay({
    workspaceRoots: [workspace],
    graceMs: 0,
    killGraceMs: 3_000,
    profiles: { codex: parseProfile("codex", profile, "agents.config.json", workspace) },
    defaultProfile: "codex",
  });
});
afterAll(async () => {
  client?.close();
  await relay?.close();
  rmSync(workspace, { recursive: true, force: true });
});

const params = (f: Frame) => (f.message as { params: any }).params;

/** The agent's message text streamed after frame `seq`. */
const textSince = (c: TestClient, seq: number) =>
  c.frames
    .filter((f) => f.seq > seq && f.method === "item/agentMessage/delta")
    .map((f) => params(f).delta)
    .join("");

describe("Codex app-server with the offline model", () => {
  it("a typed write asks for a command approval, the answer lets it write the file; a read and a command show what they found", async () => {
    client = new TestClient(relay.url, { token: "test-token" });
    await client.connected();
    const c = client;
    await c.start({ profile: "codex", cwd: workspace });
    const homes = offlineHome(relay.config.dataDir, "codex");
    expect(readdirSync(homes).map((home) => existsSync(path.join(homes, home, ".codex", "config.toml")))).toEqual([
      true,
    ]);
    const port = portOf(c);
    const end = await runAppServerHandshake({ port }, { cwd: workspace });
    expect(end.progress, JSON.stringify(end.progress)).toMatchObject({ step: "ready" });
    const threadId = end.progress.sessionId!;

    const turn = runAppServerTurn(port, threadId, "write hello.txt saying hi", 90_000);
    const ask = await c.frame(
      (f) => f.kind === "request" && f.method === "item/commandExecution/requestApproval",
      "command approval",
      60_000,
    );
    expect(existsSync(path.join(workspace, "hello.txt"))).toBe(false);
    await c.send({ id: ask.id, result: { decision: "accept" } });
    expect(await turn).toMatchObject({ ok: true, status: "completed" });
    expect(readFileSync(path.join(workspace, "hello.txt"), "utf8")).toBe("hi\n");
    expect(textSince(c, 0)).toContain("I will write `hello.txt`.");
    expect(textSince(c, 0)).toContain("Wrote `hello.txt` in the workspace.");

    // A read and a command run in Codex's sandbox; the model shows what they printed.
    const before = c.frames.at(-1)!.seq;
    expect(await runAppServerTurn(port, threadId, "read hello.txt", 90_000)).toMatchObject({ ok: true });
    expect(textSince(c, before)).toContain("`hello.txt` says:\n\n```\nhi\n```");
    const from = c.frames.at(-1)!.seq;
    expect(await runAppServerTurn(port, threadId, "run ls", 90_000)).toMatchObject({ ok: true });
    expect(textSince(c, from)).toContain("`ls` printed:\n\n```\nhello.txt\n```");
  }, 120_000);
});
