/**
 * Session start with the real Gemini CLI (offline, fake API): spawn ->
 * initialize answered -> session/new answered, cold versus from the warm pool.
 * Cold starts alternate between the gemini profile (GEMINI_CLI_NO_RELAUNCH=true:
 * one process) and the same CLI left to re-launch itself (two processes), with
 * `initialize`'s latency and the agent's process group RSS for each.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeGeminiApi } from "../test/fake-gemini/server";
import { makeGeminiHome } from "../test/gemini-home";
import { groupRssBytes } from "../server/process-group";
import { startTestRelay, TestClient, waitUntil } from "../test/relay-harness";
import { numberFlags, percentile, round } from "./harness";

const { runs } = numberFlags({ runs: 3 });
const api = await startFakeGeminiApi();
const home = makeGeminiHome(api.url);
Object.assign(process.env, home.env);
const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-bench-start-")));
const gemini = path.resolve(import.meta.dirname, "../node_modules/.bin/gemini");
// The CLI as it runs without the profile's GEMINI_CLI_NO_RELAUNCH: it re-launches itself.
const RELAUNCH = "gemini-relaunch";
const relay = await startTestRelay({
  workspaceRoots: [workspace],
  pool: { gemini: 1 },
  graceMs: 0,
  profiles: { [RELAUNCH]: { command: gemini, args: ["--acp"], env: {} } },
});
await relay.server.relay.primed;

interface Start {
  ms: number;
  initializeMs?: number;
  rssBytes?: number;
}

async function connectOnce(profile: string, pooled: boolean): Promise<Start> {
  const c = new TestClient(relay.url, { token: "test-token" });
  await c.connected();
  const t0 = performance.now();
  const agent = await c.start({ profile, pooled });
  let initializeMs: number | undefined;
  if (!agent.pooled) {
    await c.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: {} },
    });
    await c.response(1);
    initializeMs = performance.now() - t0;
  }
  await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: workspace, mcpServers: [] } });
  await c.response(2);
  const ms = performance.now() - t0;
  if (pooled && !agent.pooled) throw new Error("the pool had no warm agent");
  const rssBytes = pooled ? undefined : groupRssBytes(agent.pid);
  await c.emit("agent:stop", {});
  c.close();
  return { ms, initializeMs, rssBytes };
}

const cold: Start[] = [];
const relaunch: Start[] = [];
const warm: number[] = [];
for (let i = 0; i < runs; i++) {
  // Alternating, so both see the same machine load.
  cold.push(await connectOnce("gemini", false));
  relaunch.push(await connectOnce(RELAUNCH, false));
  await waitUntil(() => relay.server.relay.pool.size("gemini") === 1, "a warm agent", 60_000);
  warm.push((await connectOnce("gemini", true)).ms);
}
await relay.close();
await api.close();
home.cleanup();
rmSync(workspace, { recursive: true, force: true });

const median = (xs: number[]) =>
  round(
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    ),
    1,
  );
const summary = (starts: Start[]) => ({
  coldMs: { median: median(starts.map((s) => s.ms)), all: starts.map((s) => round(s.ms, 1)) },
  initializeMs: {
    median: median(starts.map((s) => s.initializeMs!)),
    all: starts.map((s) => round(s.initializeMs!, 1)),
  },
  rssMb: median(starts.map((s) => (s.rssBytes ?? 0) / (1024 * 1024))),
});
const noRelaunch = summary(cold);
console.log(
  JSON.stringify(
    {
      benchmark: "session-start",
      runs,
      coldMs: noRelaunch.coldMs,
      initializeMs: noRelaunch.initializeMs,
      rssMb: noRelaunch.rssMb,
      relaunch: summary(relaunch),
      warmMs: { median: median(warm), all: warm.map((x) => round(x, 1)) },
      speedup: round(noRelaunch.coldMs.median / median(warm), 1),
      targets: { warmConnectMs: 150 },
    },
    null,
    2,
  ),
);
