import { describe, expect, it } from "vitest";
import type { Frame } from "@/lib/protocol/frame";
import type { RpcOutcome } from "@/lib/protocol/jsonrpc";
import type { RelayInfo } from "@/lib/contracts/wire";
import { connectAgent, type Handshake } from "./connect";
import type { SessionStore } from "./session-store";

/** A store whose relay answers relay:info only when `answerInfo` is called, and every request at once. */
function slowInfoStore(info: RelayInfo | undefined) {
  const sent: Array<{ method: string; params: unknown }> = [];
  let answerInfo!: () => void;
  const infoAnswered = new Promise<RelayInfo | undefined>((resolve) => (answerInfo = () => resolve(info)));
  const notified: string[] = [];
  const starts: unknown[] = [];
  const results: Record<string, unknown> = {
    initialize: { protocolVersion: 1 },
    "session/new": { sessionId: "s1" },
    "thread/start": { thread: { id: "t1" } },
  };
  const store = {
    relayInfo: () => infoAnswered,
    startAgent: (...args: unknown[]) => {
      starts.push(args);
      return Promise.resolve({ ok: true, agent: { pooled: false } });
    },
    notify: (method: string) => {
      notified.push(method);
      return Promise.resolve({ ok: true, value: 1 });
    },
    waitForFrame: () => Promise.resolve(undefined),
    request: (method: string, params: unknown): Promise<RpcOutcome> => {
      sent.push({ method, params });
      return Promise.resolve({ kind: "result", result: results[method], frame: { seq: sent.length } as Frame });
    },
  } as unknown as SessionStore;
  return { store, sent, notified, starts, answerInfo };
}

const INFO = { workspaceRoots: ["/srv/workspace"], profiles: [] } as unknown as RelayInfo;
const OPTS = { cwd: "", clientCapabilities: {} };

describe("Connect before the relay's info has arrived", () => {
  it("opens the session in the workspace root once the relay says it, never in /", async () => {
    const { store, sent, answerInfo } = slowInfoStore(INFO);
    const steps: Handshake[] = [];
    const done = connectAgent(
      store,
      OPTS,
      (h) => steps.push(h),
      () => {},
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual([]);
    answerInfo();
    expect(await done).toMatchObject({ step: "ready", sessionId: "s1" });
    expect(sent.find((s) => s.method === "session/new")?.params).toEqual({ cwd: "/srv/workspace", mcpServers: [] });
  });

  it("a relative cwd is inside the root; without a root Connect fails before starting anything", async () => {
    const ok = slowInfoStore(INFO);
    ok.answerInfo();
    await connectAgent(
      ok.store,
      { ...OPTS, cwd: "sub" },
      () => {},
      () => {},
    );
    expect(ok.sent.find((s) => s.method === "session/new")?.params).toMatchObject({ cwd: "/srv/workspace/sub" });

    const none = slowInfoStore(undefined);
    none.answerInfo();
    const outcome = await connectAgent(
      none.store,
      OPTS,
      () => {},
      () => {},
    );
    expect(outcome).toMatchObject({ step: "failed", message: expect.stringContaining("workspace root") });
    expect(none.sent).toEqual([]);
  });
});

describe("Connect to a profile speaking Codex's app-server", () => {
  it("runs the app-server handshake, never from the warm pool, and lands in the thread", async () => {
    const info = {
      workspaceRoots: ["/srv/workspace"],
      defaultProfile: "gemini",
      profiles: [{ name: "codex", protocol: "codex-app-server" }],
    } as unknown as RelayInfo;
    const { store, sent, notified, starts, answerInfo } = slowInfoStore(info);
    answerInfo();
    const end = await connectAgent(
      store,
      { ...OPTS, profile: "codex" },
      () => {},
      () => {},
    );
    expect(end).toMatchObject({ step: "ready", sessionId: "t1" });
    expect(sent.map((s) => s.method)).toEqual(["initialize", "thread/start"]);
    expect(sent[1]!.params).toEqual({ cwd: "/srv/workspace" });
    expect(notified).toEqual(["initialized"]);
    expect(starts).toEqual([["codex", undefined, { options: undefined, pooled: false, env: undefined }]]);
  });
});
