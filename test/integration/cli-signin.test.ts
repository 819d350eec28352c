/**
 * `record --profile gemini` on a machine with no Gemini account: the Gemini CLI asks for one, and
 * the error says the way on, the same Gemini CLI against the offline model (gemini-offline).
 */
import { execa } from "execa";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin/acp-playground.mjs");
const home = mkdtempSync(path.join(tmpdir(), "acp-signin-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("record with Gemini and no account", () => {
  it("fails its handshake naming gemini-offline", async () => {
    const r = await execa(process.execPath, [bin, "record", "--profile", "gemini", "--prompt", "hi", "--cwd", home], {
      cwd: root,
      reject: false,
      timeout: 120_000,
      // No key, no login, nothing of this machine's: only what finds the programs.
      extendEnv: false,
      env: { PATH: process.env.PATH, HOME: home, ACP_PLAYGROUND_DATA: path.join(home, "data"), NO_COLOR: "1" },
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain("session/new needs authentication");
    expect(r.stderr).toContain("--profile gemini-offline runs the same Gemini CLI against the offline model");
  }, 150_000);
});
