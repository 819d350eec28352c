/**
 * The playground as a user installs it: `npm pack` (which builds dist/ and keeps the
 * production app), the tarball installed into a fresh prefix, `acp-playground` run with
 * no command from an empty folder. Then a real journey in Chromium: Connect the
 * installed package's own Gemini CLI (behind the fake Gemini API), a prompt, the
 * permission card answered, the file written in that folder, and nothing else there:
 * transcripts go to the user's data home.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { makeGeminiHome, type GeminiHome } from "../test/gemini-home";
import { stopServer, waitForUrl } from "./global-setup";
import { scriptWrite } from "./helpers";

const root = path.resolve(import.meta.dirname, "..");
/** npm, without blocking this process: it serves npm a binary meanwhile (servePrebuiltSqlite). */
const npm = async (args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  (await promisify(execFile)("npm", args, { cwd, env, encoding: "utf8", timeout: 300_000 })).stdout;

/**
 * better-sqlite3's prebuilt binary, as a user on the internet downloads it from its releases,
 * served from 127.0.0.1: made from this checkout's build of the same version, so the install
 * does not spend a minute compiling SQLite again (npm ci here already shows that it compiles).
 * A version the checkout does not have is a 404, and the install compiles it as offline users' do.
 */
async function servePrebuiltSqlite(dir: string): Promise<{ server: Server; env: NodeJS.ProcessEnv }> {
  const module = path.join(root, "node_modules", "better-sqlite3");
  const { version } = JSON.parse(readFileSync(path.join(module, "package.json"), "utf8")) as { version: string };
  // prebuild-install's name for it: {name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const tarball = path.join(dir, name);
  execFileSync("tar", ["czf", tarball, "-C", module, "build/Release/better_sqlite3.node"]);
  const server = createServer((req, res) => {
    if (req.url !== `/v${version}/${name}`) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/gzip" }).end(readFileSync(tarball));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, env: { ...process.env, npm_config_better_sqlite3_binary_host: host } };
}

test.describe.serial("installed from its tarball, run from an empty folder", () => {
  let tmp: string;
  let project: string;
  let home: GeminiHome;
  let server: ChildProcess;
  let prebuilt: Server | undefined;
  let url: string;
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(360_000);
    tmp = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-installed-")));
    // prepack builds dist/ (the app is already built by test:e2e); postpack removes it again.
    const tarball = (await npm(["pack", "--silent", "--pack-destination", tmp], root)).trim().split("\n").at(-1)!;
    const files = execFileSync("tar", ["tzf", path.join(tmp, tarball)], { encoding: "utf8" }).split("\n");
    expect(files).toContain("package/dist/cli.mjs");
    expect(files.filter((f) => /^package\/(test|e2e|bench|server|lib|components|app)\//.test(f))).toEqual([]);
    const sqlite = await servePrebuiltSqlite(tmp);
    prebuilt = sqlite.server;
    // Metadata from the registry (npm ci caches tarballs, not package documents), tarballs from the cache.
    await npm(
      [
        "install",
        "-g",
        "--prefix",
        path.join(tmp, "prefix"),
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        path.join(tmp, tarball),
      ],
      tmp,
      sqlite.env,
    );
    project = path.join(tmp, "project");
    mkdirSync(project);
    home = makeGeminiHome(process.env.E2E_FAKE_API!);
    const output: string[] = [];
    server = spawn(path.join(tmp, "prefix", "bin", "acp-playground"), ["--no-open", "--port", "0"], {
      cwd: project,
      // As a user runs it: no NODE_ENV, no ACP_PLAYGROUND_DATA or PORT beyond the flags.
      env: {
        PATH: process.env.PATH!,
        ...home.env,
        ACP_PLAYGROUND_TOKEN: "installed-token",
        NEXT_TELEMETRY_DISABLED: "1",
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const keep = (chunk: Buffer) => output.push(chunk.toString("utf8"));
    server.stdout!.on("data", keep);
    server.stderr!.on("data", keep);
    url = await waitForUrl(server, output);
    page = await browser.newPage();
  });

  test.afterAll(async () => {
    await page?.close();
    if (server) await stopServer(server);
    prebuilt?.close();
    home?.cleanup();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test("Connect, a prompt, the permission card answered, the file written in the folder it was run in", async () => {
    const target = path.join(project, "hello.txt");
    await scriptWrite(target, "hello from the installed tool\n", { before: "before\n", reply: "Written." });
    // fs advertised, so Gemini asks the playground to write (as a returning user's kept choice).
    await page.addInitScript(() =>
      localStorage.setItem("acp-playground.connect.gemini", JSON.stringify({ fsRead: true, fsWrite: true })),
    );
    await page.goto(url);
    await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
    await page.getByTestId("connect").click();
    await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
    const input = page.getByTestId("prompt-input");
    await input.fill("write hello.txt");
    await input.press("Enter");
    await input.blur();

    // Gemini reads the file through the playground (before and after asking): one click serves every read.
    const read = page.locator('[data-testid="inline-request"][data-method="fs/read_text_file"]');
    await read.getByTestId("allow-all-reads").click();
    const permission = page.locator('[data-testid="inline-request"][data-method="session/request_permission"]');
    await expect(permission).toBeVisible();
    await page.keyboard.press("a");
    const write = page.locator('[data-testid="inline-request"][data-method="fs/write_text_file"]');
    await expect(write).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("turn-footer").last()).toHaveAttribute("data-stop-reason", "end_turn");

    expect(readFileSync(target, "utf8")).toBe("hello from the installed tool\n");
    // The project holds only what the agent wrote: the transcript is in the user's data home.
    expect(readdirSync(project)).toEqual(["hello.txt"]);
    expect(existsSync(path.join(home.home, ".local", "share", "acp-playground", "transcripts"))).toBe(true);
  });
});
