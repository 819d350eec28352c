/**
 * What the tests of the pinned Codex share: the fake Responses API it talks to, a test relay whose
 * default profile, `codex`, runs it with a throw-away CODEX_HOME, and a request port over a relay
 * client, as the browser's RPC client is.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { outcomeOf, requestFrame } from "../../lib/protocol/jsonrpc";
import type { RequestPort } from "../../lib/protocol/request-port";
import { ok } from "../../lib/protocol/result";
import { codexProfile } from "../agent-profiles";
import type { FakeModelApi } from "../fake-models/http";
import { startFakeResponsesApi } from "../fake-models/openai-responses";
import { startTestRelay, type TestClient, type TestRelay } from "../relay-harness";

export interface CodexRig {
  api: FakeModelApi;
  relay: TestRelay;
  /** The throw-away folder (links resolved), holding the two below. */
  base: string;
  /** The relay's one workspace root. */
  workspace: string;
  /** Codex's HOME and CODEX_HOME. */
  home: string;
  close(): Promise<void>;
}

/** `features`: Codex features to turn on in its config (codexProfile). */
export async function startCodexRig(prefix: string, features: readonly string[] = []): Promise<CodexRig> {
  const api = await startFakeResponsesApi(() => true);
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  const workspace = path.join(base, "ws");
  const home = path.join(base, "home");
  mkdirSync(workspace);
  mkdirSync(home);
  const relay = await startTestRelay({
    workspaceRoots: [workspace],
    graceMs: 200,
    killGraceMs: 3_000,
    profiles: { codex: codexProfile(api.url, home, features) },
    defaultProfile: "codex",
  });
  return {
    api,
    relay,
    base,
    workspace,
    home,
    async close() {
      await relay.close();
      await api.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

export function portOf(c: TestClient): Pick<RequestPort, "request" | "notify" | "waitForFrame"> {
  let nextId = 1;
  return {
    async request(method, params, options) {
      const id = nextId++;
      await c.send(requestFrame(id, method, params));
      return outcomeOf(await c.response(id, options?.timeoutMs ?? 60_000));
    },
    async notify(method, params) {
      return ok(await c.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }));
    },
    waitForFrame: (match, timeoutMs) => c.frame(match, "a frame", timeoutMs).catch(() => undefined),
  };
}
