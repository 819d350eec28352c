/**
 * What a socket is told when the relay fails unexpectedly: that it did, not the failure's words.
 * A real relay whose transcripts folder is gone: starting an agent fails writing its recording
 * (ENOENT, with the data directory's path). The person is answered a fixed message; the relay's
 * log keeps the path, for its operator (server/relay-failure.ts).
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { INTERNAL_ERROR } from "../../server/relay-failure";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

describe("an unexpected failure on a socket", () => {
  let relay: TestRelay;
  let client: TestClient;

  beforeAll(async () => {
    // Never spawned: its recording fails first.
    relay = await startTestRelay({ profiles: { idle: { command: process.execPath, args: ["-e", ""], env: {} } } });
    client = new TestClient(relay.url, { token: "test-token" });
    await client.connected();
  });
  afterAll(async () => {
    client?.close();
    await relay?.close();
  });

  it("is answered without its words, which go to the relay's log", async () => {
    rmSync(path.join(relay.config.dataDir, "transcripts"), { recursive: true, force: true });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const ack = await client.emit("agent:start", { profile: "idle" });
      expect(ack).toEqual({ ok: false, error: { code: "internal", message: INTERNAL_ERROR } });
      expect(logged.mock.calls.flat().join("\n")).toContain(relay.config.dataDir);
    } finally {
      logged.mockRestore();
    }
  });
});
