/**
 * The probe's view of a real agent process through AgentDriver: what it wrote to stderr, and
 * whether it exits on its own once its stdin is closed (ACP-SHUTDOWN-001, ACP-STDERR-001).
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AgentDriver } from "./agent-driver";
import { testHost } from "../../test/host-harness";

const base = realpathSync(mkdtempSync(path.join(tmpdir(), "agent-driver-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** An agent that writes to stderr, then exits at stdin's end, or keeps running regardless. */
const script = (exits: boolean) =>
  `process.stderr.write("warming up\\n"); process.stdin.resume();` +
  (exits ? `process.stdin.on("end", () => process.exit(0));` : `setInterval(() => {}, 1000);`);

async function closeInput(exits: boolean) {
  const session = testHost(base, {
    agent: { command: process.execPath, args: ["-e", script(exits)], env: {} },
  }).host;
  const driver = new AgentDriver(session);
  try {
    expect((await session.start({ profile: "agent", cwd: base })).ok).toBe(true);
    // Until its first stderr line has come (a loaded machine starts node slowly).
    for (let i = 0; i < 200 && driver.stderr() === ""; i++) await new Promise((r) => setTimeout(r, 50));
    const stderr = driver.stderr();
    return { stderr, exited: await driver.endInput(2_000) };
  } finally {
    driver.close();
    await session.stop();
  }
}

describe("AgentDriver for the probe", () => {
  it("sees the agent's stderr, and that it exits once its stdin is closed", async () => {
    expect(await closeInput(true)).toEqual({ stderr: "warming up\n", exited: true });
  });

  it("tells an agent that keeps running after stdin closed (the host still stops it)", async () => {
    expect((await closeInput(false)).exited).toBe(false);
  });
});
