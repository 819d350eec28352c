/** `npm start -- FLAGS`: what it does not read is refused, not ignored (a `--port` would leave it on 3000). */
import { execa } from "execa";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const tmp = mkdtempSync(path.join(tmpdir(), "acp-npm-start-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("npm start's arguments", () => {
  it("refuses one it does not read, naming what to do instead, before starting anything", async () => {
    const r = await execa(process.execPath, ["--import", "tsx", "server/index.ts", "--port", "4000"], {
      cwd: root,
      reject: false,
      // Started instead, it would serve until this ends it.
      timeout: 30_000,
      env: { HOME: tmp, ACP_PLAYGROUND_DATA: path.join(tmp, "data"), PORT: "0", ACP_PLAYGROUND_OPEN: "0" },
    });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^npm start takes only --no-open, not --port: set the variables instead \(PORT, /);
    expect(r.stderr).toContain("`npx acp-playground serve --help`");
    expect(r.stdout).toBe("");
  }, 60_000);

  it("names npm run dev when that is what ran", async () => {
    const r = await execa(process.execPath, ["--import", "tsx", "server/index.ts", "--port", "4000"], {
      cwd: root,
      reject: false,
      timeout: 30_000,
      env: {
        HOME: tmp,
        ACP_PLAYGROUND_DATA: path.join(tmp, "data"),
        PORT: "0",
        ACP_PLAYGROUND_OPEN: "0",
        npm_lifecycle_event: "dev",
      },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^npm run dev takes only --no-open, not --port:/);
  }, 60_000);
});
