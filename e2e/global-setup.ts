/**
 * Starts what `npm start` starts, offline: the fake Gemini, OpenAI and Anthropic
 * APIs (in-process), a throw-away HOME for the Gemini CLI and one for the
 * third-party agents (test/agents, profiles qwen, claude, sdk-example), and `node --import tsx server/index.ts`
 * on a free port with a temp workspace root: one such world per worker
 * (e2e/world.ts). Tests read the printed URL from E2E_URL. The returned
 * function is the global teardown.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FullConfig } from "@playwright/test";
import { AGENT_KINDS, agentProfile, codexProfile, isQwenMainLoop, prepareAgentHome } from "../test/agent-profiles";
import { startFakeGeminiApi } from "../test/fake-gemini/server";
import { startFakeAnthropicApi } from "../test/fake-models/anthropic";
import { startFakeOpenAiApi } from "../test/fake-models/openai";
import { startFakeResponsesApi } from "../test/fake-models/openai-responses";
import { makeGeminiHome } from "../test/gemini-home";
import { handOverWorlds, type WorldEnv } from "./world";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The trailing whitespace proves the token is complete.
const URL_LINE = /(http:\/\/\S+\/\?token=\S+)\s/;
const STARTUP_MS = 90_000;

export function waitForUrl(child: ChildProcess, output: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`server printed no URL within ${STARTUP_MS} ms`)), STARTUP_MS);
    let seen = "";
    const onData = (chunk: Buffer) => {
      // Accumulate: the line may arrive split across chunks.
      seen += chunk.toString("utf8");
      const match = URL_LINE.exec(seen);
      if (match?.[1]) done(match[1]);
    };
    const onExit = (code: number | null, signal: string | null) =>
      fail(new Error(`server exited before printing its URL (code ${code}, signal ${signal})`));
    function cleanup() {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
    }
    function done(url: string) {
      cleanup();
      resolve(url);
    }
    function fail(err: Error) {
      cleanup();
      reject(new Error(`${err.message}\n--- server output ---\n${output.join("")}`));
    }
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
  });
}

export function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    // The server stops its agents on SIGTERM; SIGKILL only if it hangs.
    const kill = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export interface PlaygroundServer {
  process: ChildProcess;
  /** The tokenised URL the server printed. */
  url: Promise<string>;
}

/** Starts the production server exactly as `npm start` runs it after the build. */
export function startPlaygroundServer(opts: {
  configFile: string;
  dataDir: string;
  token: string;
  env?: Record<string, string>;
  /** Another built checkout to serve (the benchmarks' baseline); this one by default. */
  cwd?: string;
}): PlaygroundServer {
  const output: string[] = [];
  const child = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
    cwd: opts.cwd ?? root,
    env: {
      ...process.env,
      ...opts.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      // Tests never open a browser window of their own.
      ACP_PLAYGROUND_OPEN: "0",
      // 0 lets the OS pick a free port; the server prints the real one.
      PORT: "0",
      ACP_PLAYGROUND_TOKEN: opts.token,
      ACP_PLAYGROUND_CONFIG: opts.configFile,
      // Anything the server persists (transcripts) stays out of the project.
      ACP_PLAYGROUND_DATA: opts.dataDir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Always drain both pipes (a full pipe would block the server); keep the output for errors.
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString("utf8"));
    if (output.length > 200) output.shift();
    if (process.env.E2E_DEBUG) process.stderr.write(chunk);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { process: child, url: waitForUrl(child, output) };
}

/**
 * Starts one worker's offline world: the fake model APIs, the agents' homes and config, and the
 * playground server. Workers share nothing (a spec's scripted turns, transcripts, profiles and
 * files stay its worker's), so spec files run in parallel, one world per worker.
 */
async function startWorld(): Promise<{ env: WorldEnv; cleanup: () => Promise<void> }> {
  const api = await startFakeGeminiApi();
  const openai = await startFakeOpenAiApi(isQwenMainLoop);
  const anthropic = await startFakeAnthropicApi();
  // Codex's app-server (test/agents) talks to the fake Responses API; every call plays a turn.
  const responses = await startFakeResponsesApi(() => true);
  const home = makeGeminiHome(api.url);
  const tmp = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-e2e-")));
  const workspace = path.join(tmp, "workspace");
  mkdirSync(workspace);
  const configFile = path.join(tmp, "config.json");
  const agentHome = path.join(tmp, "agent-home");
  mkdirSync(agentHome);
  const agentApis = { qwen: openai.url, claude: anthropic.url, "sdk-example": undefined };
  const agentProfiles = Object.fromEntries(
    AGENT_KINDS.map((kind) => {
      prepareAgentHome(kind, agentHome);
      return [kind, agentProfile(kind, agentApis[kind], agentHome)];
    }),
  );
  // "missing" names an executable that does not exist, to see a start failure; "terminal" runs
  // a client terminal in every turn (test/fixtures/stub-agent.mjs).
  const stubAgent = path.resolve(import.meta.dirname, "../test/fixtures/stub-agent.mjs");
  writeFileSync(
    configFile,
    JSON.stringify({
      workspaceRoots: [workspace],
      profiles: {
        missing: { command: path.join(tmp, "no-such-agent") },
        terminal: { command: process.execPath, args: [stubAgent, "terminal", "<b>built</b> ok"] },
        cards: { command: process.execPath, args: [stubAgent, "cards"] },
        // The doctor's live findings (e2e/doctor.spec.ts): a shell greeting on stdout, then no answer;
        // `-- cat` in a pipeline, an agent that echoes its input.
        greeting: {
          command: process.execPath,
          args: [path.resolve(import.meta.dirname, "../test/fixtures/doctor-agent.mjs"), "greet"],
        },
        echo: { command: "sh", args: ["-c", "cat | cat"] },
        // Lists sessions and has config options (test/fixtures/sessions-agent.mjs); speaks v2 (v2-agent.mjs).
        sessions: {
          command: process.execPath,
          args: [path.resolve(import.meta.dirname, "../test/fixtures/sessions-agent.mjs")],
        },
        v2: { command: process.execPath, args: [path.resolve(import.meta.dirname, "../test/fixtures/v2-agent.mjs")] },
        // An acp-v2 profile: the v2 reference agent asks permission in every turn (e2e/journey-acp-v2.spec.ts).
        "v2-reference": {
          command: process.execPath,
          args: [path.resolve(import.meta.dirname, "../test/fixtures/v2-reference-agent.mjs")],
          protocol: "acp-v2",
        },
        // Elicitation, elicitation/complete and $/cancel_request both ways (test/fixtures/requests-agent.mjs).
        requests: {
          command: process.execPath,
          args: [path.resolve(import.meta.dirname, "../test/fixtures/requests-agent.mjs")],
        },
        // Requires authentication; authenticate answers after 800 ms (test/fixtures/auth-agent.mjs).
        auth: {
          command: process.execPath,
          args: [path.resolve(import.meta.dirname, "../test/fixtures/auth-agent.mjs"), "800"],
        },
        // Every v1 stable and unstable session/update kind on each prompt (test/fixtures/every-update-agent.mjs).
        "every-update": {
          command: process.execPath,
          args: [path.resolve(import.meta.dirname, "../test/fixtures/every-update-agent.mjs")],
        },
        ...agentProfiles,
        // request_permissions for the thread view's permissions card (the fake model calls only scripted tools).
        codex: codexProfile(responses.url, path.join(tmp, "codex-home"), ["request_permissions_tool"]),
      },
    }),
  );
  const token = randomBytes(24).toString("base64url");

  const child = startPlaygroundServer({ configFile, dataDir: path.join(tmp, "data"), token, env: home.env });
  const cleanup = async () => {
    await stopServer(child.process);
    await api.close();
    await openai.close();
    await anthropic.close();
    await responses.close();
    home.cleanup();
    rmSync(tmp, { recursive: true, force: true });
  };

  let url: string;
  try {
    url = await child.url;
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    env: {
      E2E_URL: url,
      E2E_ORIGIN: new URL(url).origin,
      E2E_WORKSPACE: workspace,
      // The server's HOME: where it looks for other clients' agents (~/.jetbrains/acp.json).
      E2E_HOME: home.home,
      // Tests queue model turns through the fake APIs' /__fake/script endpoints.
      E2E_FAKE_API: api.url,
      E2E_FAKE_OPENAI: openai.url,
      E2E_FAKE_ANTHROPIC: anthropic.url,
      E2E_FAKE_RESPONSES: responses.url,
    },
    cleanup,
  };
}

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  // The third-party agents (test/agents, behind e2e/agents.spec.ts), installed when missing.
  execFileSync(process.execPath, [path.join(root, "scripts/ensure-agents.mjs")], { stdio: "inherit" });
  const started = await Promise.allSettled(Array.from({ length: config.workers }, () => startWorld()));
  const worlds = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const cleanup = async () => {
    await Promise.all(worlds.map((w) => w.cleanup()));
  };
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await cleanup();
    throw failed.reason;
  }
  // Workers start after global setup and inherit the runner's environment.
  handOverWorlds(worlds.map((w) => w.env));
  return cleanup;
}
