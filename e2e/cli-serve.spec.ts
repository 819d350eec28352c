/**
 * `acp-playground` with no command, from the repository (the production build e2e runs on):
 * it serves the folder it runs in, an agent after `--` is a profile of its own and selected,
 * and the data goes to the user's data directory. No browser: the relay's own HTTP API.
 */
import { execa } from "execa";
import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "bin/acp-playground.mjs");
const stub = path.join(root, "test/fixtures/stub-agent.mjs");

test("with no command it serves the folder it runs in, with the agent after -- as the selected profile", async () => {
  const tmp = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-cli-serve-")));
  const project = path.join(tmp, "project");
  const home = path.join(tmp, "home");
  await execa("mkdir", ["-p", project, home]);
  const server = execa(process.execPath, [bin, "--no-open", "--port", "0", "--", process.execPath, stub, "echo"], {
    cwd: project,
    reject: false,
    env: { HOME: home, XDG_DATA_HOME: "", ACP_PLAYGROUND_TOKEN: "cli-serve", ACP_PLAYGROUND_DATA: "" },
  });
  try {
    let out = "";
    server.stderr.on("data", (d: Buffer) => (out += String(d)));
    const origin = await new Promise<string>((resolve, reject) => {
      server.stdout.on("data", (d: Buffer) => {
        out += String(d);
        const m = /(http:\/\/127\.0\.0\.1:\d+)\/\?token=cli-serve\s/.exec(out);
        if (m) resolve(m[1]!);
      });
      void server.then((r) => reject(new Error(`exited: ${r.stderr}`)));
    });
    const info = await (await fetch(`${origin}/api/info`, { headers: { authorization: "Bearer cli-serve" } })).json();
    // A page without a token names this command, not `npm start` (server/http/sign-in.ts).
    expect(await (await fetch(`${origin}/api/sign-in`)).json()).toEqual({ signedIn: false, start: "installed" });
    // Named after the command (node), selected, and this folder is the workspace.
    expect(info.defaultProfile).toBe("node");
    expect(info.profiles.find((p: { name: string }) => p.name === "node")).toMatchObject({
      command: process.execPath,
      args: [stub, "echo"],
    });
    expect(info.workspaceRoots).toEqual([project]);
    // Quiet start: the URL and nothing of Next's (its config's load timing among them).
    expect(out).not.toMatch(/next\.config|✓/);
  } finally {
    server.kill("SIGTERM");
    await server;
  }
  // The discovery files went to the user's data directory, nothing into the project.
  expect(readFileSync(path.join(home, ".local", "share", "acp-playground", "token"), "utf8")).toBe("cli-serve");
  expect(await execa("ls", ["-A", project]).then((r) => r.stdout)).toBe("");
  rmSync(tmp, { recursive: true, force: true });
});

test("a port in use is named with what to do, exit 2, and the warm agent it started is stopped", async () => {
  const tmp = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-cli-port-")));
  // The agent's own copy: a process still running it after the command ended names this folder.
  const agent = path.join(tmp, "agent.mjs");
  copyFileSync(stub, agent);
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = (taken.address() as AddressInfo).port;
  try {
    const r = await execa(
      process.execPath,
      [bin, "--no-open", "--port", String(port), "--", process.execPath, agent, "echo"],
      {
        cwd: tmp,
        reject: false,
        timeout: 60_000,
        env: { HOME: tmp, XDG_DATA_HOME: "", ACP_PLAYGROUND_DATA: path.join(tmp, "data") },
      },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `acp-playground: configuration error: port ${port} on 127.0.0.1 is in use: stop what uses it, or choose another port with --port N (0 picks a free one)`,
    );
    const left = await execa("pgrep", ["-f", agent], { reject: false });
    expect(left.stdout).toBe("");
  } finally {
    taken.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
