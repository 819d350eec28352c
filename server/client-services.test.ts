import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ClientServices, ServiceError } from "./client-services";

const base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-services-")));
const ws = path.join(base, "ws");
const secret = path.join(base, "secret.txt");
mkdirSync(path.join(ws, "dir"), { recursive: true });
writeFileSync(path.join(ws, "a.txt"), "one\ntwo\nthree\n");
writeFileSync(secret, "top secret");
symlinkSync(secret, path.join(ws, "link-out.txt"));
symlinkSync(base, path.join(ws, "dir-out"));
const services = new ClientServices(ws, 500);
afterAll(async () => {
  await services.dispose();
  rmSync(base, { recursive: true, force: true });
});

async function error(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ServiceError) return err.body;
    throw err;
  }
  throw new Error("expected a ServiceError");
}

describe("fs", () => {
  it("reads inside the workspace, honouring line and limit", async () => {
    expect(await services.handle("fs/read_text_file", { sessionId: "s", path: path.join(ws, "a.txt") })).toEqual({
      content: "one\ntwo\nthree\n",
    });
    expect(
      await services.handle("fs/read_text_file", { sessionId: "s", path: path.join(ws, "a.txt"), line: 2, limit: 1 }),
    ).toEqual({ content: "two" });
  });

  it("answers a missing file with a JSON-RPC error, never a null result", async () => {
    expect(await error(services.handle("fs/read_text_file", { path: path.join(ws, "nope.txt") }))).toMatchObject({
      code: -32002,
    });
  });

  it("refuses paths outside the workspace: absolute, .., symlinks out, relative", async () => {
    for (const p of [
      secret,
      path.join(ws, "..", "secret.txt"),
      path.join(ws, "link-out.txt"),
      path.join(ws, "dir-out", "secret.txt"),
    ]) {
      expect(await error(services.handle("fs/read_text_file", { path: p }))).toMatchObject({
        message: expect.stringMatching(/outside the workspace/),
      });
    }
    expect(await error(services.handle("fs/read_text_file", { path: "a.txt" }))).toMatchObject({ code: -32602 });
    expect(
      await error(services.handle("fs/write_text_file", { path: path.join(ws, "dir-out", "x.txt"), content: "x" })),
    ).toMatchObject({
      message: expect.stringMatching(/outside/),
    });
    expect(
      await error(services.handle("fs/write_text_file", { path: path.join(ws, "link-out.txt"), content: "x" })),
    ).toMatchObject({
      message: expect.stringMatching(/outside/),
    });
    expect(readFileSync(secret, "utf8")).toBe("top secret");
  });

  it("writes new files, creating directories inside the workspace", async () => {
    const target = path.join(ws, "new", "deep", "b.txt");
    expect(await services.handle("fs/write_text_file", { path: target, content: "hi" })).toEqual({});
    expect(readFileSync(target, "utf8")).toBe("hi");
  });
});

describe("terminals", () => {
  it("runs a command in the workspace and reports output and exit status", async () => {
    const { terminalId } = (await services.handle("terminal/create", {
      command: "sh",
      args: ["-c", "pwd; echo err >&2; exit 3"],
    })) as { terminalId: string };
    expect(await services.handle("terminal/wait_for_exit", { terminalId })).toEqual({ exitCode: 3, signal: null });
    const out = (await services.handle("terminal/output", { terminalId })) as {
      output: string;
      truncated: boolean;
      exitStatus: unknown;
    };
    expect(out.output).toContain(ws);
    expect(out.output).toContain("err");
    expect(out).toMatchObject({ truncated: false, exitStatus: { exitCode: 3, signal: null } });
    expect(await services.handle("terminal/release", { terminalId })).toEqual({});
    expect(await error(services.handle("terminal/output", { terminalId }))).toMatchObject({ code: -32002 });
  });

  it("keeps only outputByteLimit bytes", async () => {
    const { terminalId } = (await services.handle("terminal/create", {
      command: "sh",
      args: ["-c", "printf 0123456789"],
      outputByteLimit: 4,
    })) as { terminalId: string };
    await services.handle("terminal/wait_for_exit", { terminalId });
    expect(await services.handle("terminal/output", { terminalId })).toMatchObject({ output: "6789", truncated: true });
  });

  it("kills a running command", async () => {
    const { terminalId } = (await services.handle("terminal/create", { command: "sleep", args: ["30"] })) as {
      terminalId: string;
    };
    await services.handle("terminal/kill", { terminalId });
    const exit = (await services.handle("terminal/wait_for_exit", { terminalId })) as { signal: string | null };
    expect(exit.signal).toBe("SIGTERM");
  });

  it("reports a missing command through the exit status", async () => {
    const { terminalId } = (await services.handle("terminal/create", { command: "definitely-not-a-command-xyz" })) as {
      terminalId: string;
    };
    expect(await services.handle("terminal/wait_for_exit", { terminalId })).toMatchObject({ exitCode: 127 });
  });

  it("refuses a cwd outside the workspace", async () => {
    expect(await error(services.handle("terminal/create", { command: "pwd", cwd: base }))).toMatchObject({
      message: expect.stringMatching(/outside/),
    });
  });
});
