/**
 * Watch links across instances (issue #37): two relays on one throw-away redis-server. A watcher
 * on B of a session on A sees it live; Redis stopped: the watcher is told the stream is paused,
 * while A's owner, its recording and A's own watcher never notice; Redis started again: the
 * watcher resumes and gets every frame it missed, once.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";
import { redisSkipReason, startRedis, type TestRedis } from "../redis-server";
import { Watcher } from "../watch-client";

const skip = redisSkipReason();
const fixture = path.resolve(import.meta.dirname, "../fixtures/leaky-agent.mjs");

let redis: TestRedis;
let a: TestRelay;
let b: TestRelay;

/** Resolves once `check` holds, polled: for state no event of TestClient announces. */
async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const prompt = async (c: TestClient, id: number) => {
  await c.send({
    jsonrpc: "2.0",
    id,
    method: "session/prompt",
    params: { sessionId: "leaky", prompt: [{ type: "text", text: `turn ${id}` }] },
  });
  return c.response(id);
};

const seqs = (w: TestClient) => w.frames.map((f) => f.seq);

beforeAll(async () => {
  if (skip) return;
  redis = await startRedis();
  const relay = () =>
    startTestRelay({
      redis: redis.url,
      profiles: { leaky: { command: process.execPath, args: [fixture], env: {} } },
    });
  [a, b] = await Promise.all([relay(), relay()]);
  await Promise.all([a.server.relay.clustered, b.server.relay.clustered]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await redis?.remove();
});

describe.skipIf(skip)("watch links across instances on Redis", () => {
  it("a watcher on B follows a session on A, pauses while Redis is away, resumes with what it missed", async () => {
    const owner = new TestClient(a.url, { token: "test-token" });
    let onB: Watcher | undefined;
    let onA: Watcher | undefined;
    try {
      await owner.connected();
      const { transcriptId } = await owner.start({ profile: "leaky" });
      await owner.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });
      await owner.response(1);
      const res = await fetch(`${a.url}/api/watch`, {
        method: "POST",
        headers: { authorization: "Bearer test-token", "content-type": "application/json" },
        body: JSON.stringify({ clientId: owner.clientId }),
      });
      expect(res.status).toBe(201);
      const { token } = (await res.json()) as { token: string };

      onB = new Watcher(b.url, token);
      onA = new Watcher(a.url, token);
      await Promise.all([onB.connected(), onA.connected()]);
      // B's watcher gets the log from A, then the live frames.
      await onB.frame((f) => f.id === 1 && f.kind === "response", "initialize, from A");
      await prompt(owner, 2);
      await onB.frame((f) => f.id === 2 && f.kind === "response", "a live frame, through Redis");
      const unknown = new Watcher(b.url, "y".repeat(32));
      await expect(unknown.connected()).rejects.toThrow("no such watch link");
      unknown.close();

      await redis.stop();
      await until(() => onB!.states.includes("paused"), "B's watcher told paused");
      // The owner, A's own watcher and the recording go on as if nothing happened.
      await prompt(owner, 3);
      await prompt(owner, 4);
      await onA.frame((f) => f.id === 4 && f.kind === "response", "A's watcher, live while Redis is away");
      expect(onB.frames.some((f) => f.id === 4)).toBe(false);
      expect(owner.errors).toEqual([]);

      await redis.start();
      await until(() => onB!.states.includes("resumed"), "B's watcher told resumed", 60_000);
      await onB.frame((f) => f.id === 4 && f.kind === "response", "what B missed, after Redis came back", 60_000);
      await prompt(owner, 5);
      await onB.frame((f) => f.id === 5 && f.kind === "response", "live again through Redis", 60_000);
      // Redis came back empty: A listed its link again, so a new watcher on B is let in.
      const again = new Watcher(b.url, token);
      await again.connected();
      again.close();
      // Every frame once, in order, as the owner had them.
      expect(seqs(onB)).toEqual(seqs(owner));
      expect(onB.states).toEqual(["paused", "resumed"]);
      expect(onA.states).toEqual([]);

      // The recording never noticed: every frame is in the transcript.
      const dir = path.join(a.config.dataDir, "transcripts");
      const file = readdirSync(dir).find((f) => f.startsWith(transcriptId!) && f.endsWith(".jsonl"));
      const lines = readFileSync(path.join(dir, file!), "utf8").trim().split("\n");
      const recorded = lines.map((l) => JSON.parse(l) as { type: string; seq?: number }).filter((e) => e.seq);
      expect(recorded.map((e) => e.seq)).toEqual(expect.arrayContaining(seqs(owner)));

      // Ending the link on A ends B's watcher too.
      expect(
        (
          await fetch(`${a.url}/api/watch/${token}`, {
            method: "DELETE",
            headers: { authorization: "Bearer test-token" },
          })
        ).status,
      ).toBe(204);
      await onB.disconnected;
      expect(onB.ended).toBe("the owner ended this watch link");
    } finally {
      onB?.close();
      onA?.close();
      owner.close();
    }
  }, 150_000);
});
