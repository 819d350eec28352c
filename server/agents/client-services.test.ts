import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sliceLines } from "../../lib/features/answers/policy";
import { alive, waitUntil } from "../../test/relay-harness";
import { ClientServices, ServiceError } from "./client-services";

const base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-services-")));
const ws = path.join(base, "ws");
const secret = path.join(base, "secret.txt");
mkdirSync(path.join(ws, "dir"), { recursive: true });
writeFileSync(path.join(ws, "a.txt"), "one\ntwo\nthree\n");
writeFileSync(secret, "top secret");
symlinkSync(secret, path.join(ws, "link-out.txt"));
symlinkSync(base, path.join(ws, "dir-out"));
// The default layout: the data directory (token, transcripts) is inside the workspace.
const dataDir = path.join(ws, "data");
mkdirSync(path.join(dataDir, "transcripts"), { recursive: true });
writeFileSync(path.join(dataDir, "token"), "relay-token");
writeFileSync(path.join(dataDir, "transcripts", "t1.jsonl"), "{}\n");
symlinkSync(dataDir, path.join(ws, "data-link"));
const services = new ClientServices(ws, { dataDir, killGraceMs: 500 });
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
    expect(
      await error(services.handle("fs/read_text_file", { sessionId: "s", path: path.join(ws, "nope.txt") })),
    ).toMatchObject({
      code: -32002,
    });
  });

  it("refuses paths outside the workspace: absolute, .., symlinks out, relative", async () => {
    for (const p of [secret, path.join(ws, "..", "secret.txt"), path.join(ws, "dir-out", "secret.txt")]) {
      expect(await error(services.handle("fs/read_text_file", { sessionId: "s", path: p }))).toMatchObject({
        message: expect.stringMatching(/outside the workspace/),
      });
    }
    expect(await error(services.handle("fs/read_text_file", { sessionId: "s", path: "a.txt" }))).toMatchObject({
      code: -32602,
    });
    expect(
      await error(
        services.handle("fs/write_text_file", {
          sessionId: "s",
          path: path.join(ws, "dir-out", "x.txt"),
          content: "x",
        }),
      ),
    ).toMatchObject({
      message: expect.stringMatching(/outside/),
    });
    expect(readFileSync(secret, "utf8")).toBe("top secret");
  });

  it("follows no symlink in the last component, for reads and writes: dangling, to a file or a directory outside", async () => {
    const dangling = path.join(ws, "dangling.txt");
    const target = path.join(base, "created-outside.txt");
    symlinkSync(target, dangling);
    for (const p of [dangling, path.join(ws, "link-out.txt"), path.join(ws, "dir-out")]) {
      for (const request of [
        services.handle("fs/read_text_file", { sessionId: "s", path: p }),
        services.handle("fs/write_text_file", { sessionId: "s", path: p, content: "pwned" }),
      ]) {
        expect(await error(request)).toMatchObject({
          code: -32000,
          message: `path is a symbolic link, which the relay does not follow: ${p}`,
        });
      }
    }
    expect(existsSync(target)).toBe(false);
    expect(readFileSync(secret, "utf8")).toBe("top secret");
    // `..` and absolute paths out are refused before anything is opened.
    for (const p of [path.join(ws, "..", "x.txt"), path.join(base, "x.txt")]) {
      expect(
        await error(services.handle("fs/write_text_file", { sessionId: "s", path: p, content: "x" })),
      ).toMatchObject({
        message: `path is outside the workspace: ${p}`,
      });
      expect(existsSync(path.join(base, "x.txt"))).toBe(false);
    }
  });

  it("serves regular files only: a FIFO, a directory, a socket answer an error at once", async () => {
    const fifo = path.join(ws, "pipe");
    execFileSync("mkfifo", [fifo]);
    expect(await error(services.handle("fs/read_text_file", { sessionId: "s", path: fifo }))).toEqual({
      code: -32000,
      message: `not a regular file (a FIFO): ${fifo}`,
    });
    // Without a reader the open fails (ENXIO) instead of waiting for one.
    expect(
      await error(services.handle("fs/write_text_file", { sessionId: "s", path: fifo, content: "x" })),
    ).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/^not a regular file/),
    });
    expect(
      await error(services.handle("fs/read_text_file", { sessionId: "s", path: path.join(ws, "dir") })),
    ).toMatchObject({
      message: expect.stringMatching(/^not a regular file \(a directory\)/),
    });
  });

  it("caps what one read returns, reads line/limit as a stream, and says so when the file is too large", async () => {
    const small = new ClientServices(ws, { dataDir, maxReadBytes: 64 });
    const file = path.join(ws, "lines.txt");
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i} é`).join("\n") + "\n";
    writeFileSync(file, text);
    expect(await error(small.handle("fs/read_text_file", { sessionId: "s", path: file }))).toEqual({
      code: -32000,
      message: `the file (${Buffer.byteLength(text)} bytes) is larger than the 64 bytes one read may return: ${file} (ask for fewer lines with line/limit)`,
    });
    expect(await small.handle("fs/read_text_file", { sessionId: "s", path: file, line: 998, limit: 2 })).toEqual({
      content: "line 997 é\nline 998 é",
    });
    expect(
      await error(small.handle("fs/read_text_file", { sessionId: "s", path: file, line: 1, limit: 100 })),
    ).toMatchObject({
      message: expect.stringMatching(/^the text asked for is larger than the 64 bytes/),
    });
    // Same lines as slicing the whole text, at every edge.
    for (const [line, limit] of [
      [1, 1],
      [1000, 5],
      [1001, 1],
      [1002, 3],
      [5, 0],
      [null, 3],
      [999, null],
    ]) {
      expect(await services.handle("fs/read_text_file", { sessionId: "s", path: file, line, limit })).toEqual({
        content: sliceLines(text, line, limit),
      });
    }
  });

  it("never serves the data directory, though it is inside the workspace: reads, writes, links into it", async () => {
    const inData = (p: string) => ({
      code: -32000,
      message: `${p} is inside the playground's data directory (its token and transcripts), which is never served to an agent`,
    });
    const token = path.join(dataDir, "token");
    for (const p of [
      token,
      path.join(dataDir, "transcripts", "t1.jsonl"),
      path.join(ws, "dir", "..", "data", "token"),
      // A link in the workspace to the data directory is seen through.
      path.join(ws, "data-link", "token"),
      path.join(ws, "data-link", "transcripts", "t1.jsonl"),
    ]) {
      expect(await error(services.handle("fs/read_text_file", { sessionId: "s", path: p })), p).toEqual(inData(p));
    }
    for (const p of [
      token,
      path.join(dataDir, "relay.json"),
      path.join(dataDir, "new", "deep", "x.txt"),
      path.join(ws, "data-link", "transcripts", "planted.jsonl"),
    ]) {
      expect(
        await error(services.handle("fs/write_text_file", { sessionId: "s", path: p, content: "pwned" })),
        p,
      ).toEqual(inData(p));
    }
    expect(readFileSync(token, "utf8")).toBe("relay-token");
    expect(existsSync(path.join(dataDir, "relay.json"))).toBe(false);
    expect(existsSync(path.join(dataDir, "new"))).toBe(false);
    expect(existsSync(path.join(dataDir, "transcripts", "planted.jsonl"))).toBe(false);
    // The workspace's other files are still served.
    expect(await services.handle("fs/read_text_file", { sessionId: "s", path: path.join(ws, "a.txt") })).toEqual({
      content: "one\ntwo\nthree\n",
    });
    // A data directory not created yet is refused too, named as configured.
    const later = new ClientServices(ws, { dataDir: path.join(ws, "later-data") });
    const planted = path.join(ws, "later-data", "token");
    expect(await error(later.handle("fs/write_text_file", { sessionId: "s", path: planted, content: "x" }))).toEqual(
      inData(planted),
    );
    expect(existsSync(path.join(ws, "later-data"))).toBe(false);
  });

  it("writes new files, creating directories inside the workspace", async () => {
    const target = path.join(ws, "new", "deep", "b.txt");
    expect(await services.handle("fs/write_text_file", { sessionId: "s", path: target, content: "hi" })).toEqual({});
    expect(readFileSync(target, "utf8")).toBe("hi");
  });
});

describe("terminals", () => {
  it("runs a command in the workspace and reports output and exit status", async () => {
    const { terminalId } = (await services.handle("terminal/create", {
      sessionId: "s",
      command: "sh",
      args: ["-c", "pwd; echo err >&2; exit 3"],
    })) as { terminalId: string };
    expect(await services.handle("terminal/wait_for_exit", { sessionId: "s", terminalId })).toEqual({
      exitCode: 3,
      signal: null,
    });
    const out = (await services.handle("terminal/output", { sessionId: "s", terminalId })) as {
      output: string;
      truncated: boolean;
      exitStatus: unknown;
    };
    expect(out.output).toContain(ws);
    expect(out.output).toContain("err");
    expect(out).toMatchObject({ truncated: false, exitStatus: { exitCode: 3, signal: null } });
    expect(await services.handle("terminal/release", { sessionId: "s", terminalId })).toEqual({});
    expect(await error(services.handle("terminal/output", { sessionId: "s", terminalId }))).toMatchObject({
      code: -32002,
    });
  });

  it("never runs a command in the data directory, or in a link to it", async () => {
    for (const cwd of [dataDir, path.join(dataDir, "transcripts"), path.join(ws, "data-link")]) {
      expect(
        await error(services.handle("terminal/create", { sessionId: "s", command: "cat", args: ["token"], cwd })),
        cwd,
      ).toEqual({
        code: -32000,
        message: `${cwd} is inside the playground's data directory (its token and transcripts), which is never served to an agent`,
      });
    }
    // A workspace inside the data directory: not even the default cwd.
    const inside = new ClientServices(path.join(dataDir, "transcripts"), { dataDir });
    expect(await error(inside.handle("terminal/create", { sessionId: "s", command: "true" }))).toMatchObject({
      message: expect.stringMatching(/inside the playground's data directory/),
    });
    const { terminalId } = (await services.handle("terminal/create", {
      sessionId: "s",
      command: "pwd",
      cwd: path.join(ws, "dir"),
    })) as { terminalId: string };
    await services.handle("terminal/wait_for_exit", { sessionId: "s", terminalId });
    expect(await services.handle("terminal/output", { sessionId: "s", terminalId })).toMatchObject({
      output: `${path.join(ws, "dir")}\n`,
    });
    await services.handle("terminal/release", { sessionId: "s", terminalId });
  });

  it("keeps only outputByteLimit bytes", async () => {
    const { terminalId } = (await services.handle("terminal/create", {
      sessionId: "s",
      command: "sh",
      args: ["-c", "printf 0123456789"],
      outputByteLimit: 4,
    })) as { terminalId: string };
    await services.handle("terminal/wait_for_exit", { sessionId: "s", terminalId });
    expect(await services.handle("terminal/output", { sessionId: "s", terminalId })).toMatchObject({
      output: "6789",
      truncated: true,
    });
  });

  it("keeps a capped tail of a flood when the agent gives no outputByteLimit, or a larger one", async () => {
    const capped = new ClientServices(ws, { dataDir, killGraceMs: 500, terminalOutputBytes: 1000 });
    for (const outputByteLimit of [null, 10 ** 12]) {
      const { terminalId } = (await capped.handle("terminal/create", {
        sessionId: "s",
        command: "sh",
        args: ["-c", "head -c 5000000 /dev/zero | tr '\\0' y; printf 'é end'"],
        outputByteLimit,
      })) as { terminalId: string };
      await capped.handle("terminal/wait_for_exit", { sessionId: "s", terminalId });
      const out = (await capped.handle("terminal/output", { sessionId: "s", terminalId })) as {
        output: string;
        truncated: boolean;
      };
      expect(out.truncated).toBe(true);
      expect(Buffer.byteLength(out.output)).toBeLessThanOrEqual(1000);
      expect(out.output.endsWith("yé end")).toBe(true);
    }
    await capped.dispose();
  });

  it("stops a background child that ignores SIGTERM after the command itself has exited", async () => {
    const { terminalId } = (await services.handle("terminal/create", {
      sessionId: "s",
      command: "sh",
      args: [
        "-c",
        `nohup sh -c 'trap "" TERM; exec sleep 991' >/dev/null 2>&1 & setsid sh -c 'trap "" TERM; exec sleep 992' >/dev/null 2>&1 & echo $!`,
      ],
    })) as { terminalId: string };
    await services.handle("terminal/wait_for_exit", { sessionId: "s", terminalId });
    const sleepers = () =>
      execFileSync("pgrep", ["-f", "^sleep 99[12]$"], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
    await waitUntil(() => sleepers().length === 2, "both sleepers started");
    const pids = sleepers();
    await services.handle("terminal/release", { sessionId: "s", terminalId });
    expect(pids.filter(alive)).toEqual([]);
  });

  it("kills a running command", async () => {
    const { terminalId } = (await services.handle("terminal/create", {
      sessionId: "s",
      command: "sleep",
      args: ["30"],
    })) as {
      terminalId: string;
    };
    await services.handle("terminal/kill", { sessionId: "s", terminalId });
    const exit = (await services.handle("terminal/wait_for_exit", { sessionId: "s", terminalId })) as {
      signal: string | null;
    };
    expect(exit.signal).toBe("SIGTERM");
  });

  it("reports a missing command through the exit status", async () => {
    const { terminalId } = (await services.handle("terminal/create", {
      sessionId: "s",
      command: "definitely-not-a-command-xyz",
    })) as {
      terminalId: string;
    };
    expect(await services.handle("terminal/wait_for_exit", { sessionId: "s", terminalId })).toMatchObject({
      exitCode: 127,
    });
  });

  it("refuses a cwd outside the workspace", async () => {
    expect(
      await error(services.handle("terminal/create", { sessionId: "s", command: "pwd", cwd: base })),
    ).toMatchObject({
      message: expect.stringMatching(/outside/),
    });
  });
});

describe("params checked by the SDK's schema", () => {
  it.each([
    ["fs/read_text_file", { path: path.join(ws, "a.txt") }, "params.sessionId"],
    ["fs/read_text_file", { sessionId: "s", path: 7 }, "params.path"],
    ["fs/read_text_file", { sessionId: "s", path: path.join(ws, "a.txt"), line: -1 }, "params.line"],
    ["fs/write_text_file", { sessionId: "s", path: path.join(ws, "b.txt") }, "params.content"],
    ["terminal/create", { sessionId: "s", command: "true", args: "-la" }, "params.args"],
    ["terminal/create", { sessionId: "s", command: "true", env: [{ name: "A" }] }, "params.env[0].value"],
    ["terminal/output", { sessionId: "s" }, "params.terminalId"],
    ["terminal/release", { sessionId: "s", terminalId: 5 }, "params.terminalId"],
  ])("%s %j is -32602 naming %s, and nothing is done", async (method, params, field) => {
    const body = (await error(services.handle(method, params))) as { code: number; message: string; data: unknown };
    expect(body.code).toBe(-32602);
    expect(body.message).toContain(field);
    expect(body.data).toMatchObject({ issues: expect.arrayContaining([expect.objectContaining({ path: field })]) });
    expect(existsSync(path.join(ws, "b.txt"))).toBe(false);
  });

  it("refuses params that are not an object at all", async () => {
    expect(await error(services.handle("fs/read_text_file", undefined))).toMatchObject({
      code: -32602,
      message: expect.stringContaining("params"),
    });
  });

  it("accepts null for the optional line and limit, as the schema allows", async () => {
    expect(
      await services.handle("fs/read_text_file", {
        sessionId: "s",
        path: path.join(ws, "a.txt"),
        line: null,
        limit: null,
      }),
    ).toEqual({ content: "one\ntwo\nthree\n" });
  });
});
