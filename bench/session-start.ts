/**
 * Session start with the real Gemini CLI (offline, fake API): spawn ->
 * initialize answered -> session/new answered, cold versus from the warm pool.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeGeminiApi } from "../test/fake-gemini/server";
import { makeGeminiHome } from "../test/gemini-home";
import { startTestRelay, TestClient, waitUntil } from "../test/relay-harness";
import { numberFlags, percentile, round } from "./harness";

const { runs } = numberFlags({ runs: 3 });
const api = await startFakeGeminiApi();
const home = makeGeminiHome(api.url);
Object.assign(process.env, home.env);
const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-bench-start-")));
const relay = await startTestRelay({ workspaceRoots: [workspace], pool: { gemini: 1 }, graceMs: 0 });
await relay.server.relay.primed;

async function connectOnce(pooled: boolean): Promise<number> {
  const c = new TestClient(relay.url, { token: "test-token" });
  await c.connected();
  const t0 = performance.now();
  const agent = await c.start({ pooled });
  if (!agent.pooled) {
    await c.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: {} },
    });
    await c.response(1);
  }
  await c.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: workspace, mcpServers: [] } });
  await c.response(2);
  const ms = performance.now() - t0;
  if (pooled && !agent.pooled) throw new Error("the pool had no warm agent");
  await c.emit("agent:stop", {});
  c.close();
  return ms;
}

const cold: number[] = [];
const warm: number[] = [];
for (let i = 0; i < runs; i++) {
  cold.push(await connectOnce(false));
  await waitUntil(() => relay.server.relay.pool.size("gemini") === 1, "a warm agent", 60_000);
  warm.push(await connectOnce(true));
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
console.log(
  JSON.stringify(
    {
      benchmark: "session-start",
      runs,
      coldMs: { median: median(cold), all: cold.map((x) => round(x, 1)) },
      warmMs: { median: median(warm), all: warm.map((x) => round(x, 1)) },
      speedup: round(median(cold) / median(warm), 1),
      targets: { warmConnectMs: 150 },
    },
    null,
    2,
  ),
);
