/**
 * The offline model: the scripted model (scripted-model.ts) served inside this
 * process on 127.0.0.1 in the API each agent speaks (Gemini for Gemini CLI,
 * OpenAI chat completions for Qwen Code, Anthropic Messages for Claude's ACP
 * adapter, OpenAI Responses for Codex's app-server), each started on first use, and the environment that points the
 * real agent at it with a home of its own (no account, no settings or
 * credentials of the user's). Each run gets a home of its own in the data
 * directory, since the agent writes its conversation there (Gemini CLI's
 * .gemini/tmp, Claude Code's projects, Codex's sessions), unredacted: the relay
 * removes it when the agent exits (Launch.scratch), and each start removes those
 * of processes that are gone (an agent that outlived the server's exit by a moment).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { scriptedMessagesTurn, startAnthropicApi } from "./anthropic-api";
import { writeCodexHome } from "./codex-home";
import { scriptedTurn, startFakeGeminiApi } from "./gemini-api";
import { prepareGeminiHome } from "./gemini-home";
import { offersTools } from "./http";
import { scriptedChatTurn, startOpenAiApi } from "./openai-api";
import { scriptedResponsesTurn, startResponsesApi } from "./responses-api";

/** The agents the offline model can serve, each through its own API. */
export const OFFLINE_AGENTS = ["gemini", "qwen", "claude", "codex"] as const;
export type OfflineAgent = (typeof OFFLINE_AGENTS)[number];

/** The command names that make an agent one of them (its own command, or an argument of node or npx). */
const AGENT_COMMANDS: Record<OfflineAgent, RegExp> = {
  gemini: /^gemini(-cli)?$/,
  qwen: /^qwen(-code)?$/,
  claude: /^claude-(agent|code)-acp$/,
  codex: /^codex$/,
};

/** The commands named in errors and docs. */
export const OFFLINE_AGENT_COMMANDS = "gemini, qwen, claude-agent-acp and codex";

/**
 * Which agent a profile's command line starts, for `"model": "offline"`: by a word's name (the
 * command, or an argument of node or npx), else by a folder on its path (a package's script run
 * by node: .../@zed-industries/claude-agent-acp/dist/index.js); undefined when it is none the
 * offline model serves.
 */
export function offlineAgentOf(command: string, args: readonly string[] = []): OfflineAgent | undefined {
  const words = [command, ...args];
  // A name: a path's last part, or an npm package (@scope/name@version) given to npx.
  const names = words.map((w) =>
    path
      .basename(w)
      .replace(/@[^@/]*$/, "")
      .replace(/\.[cm]?js$/, ""),
  );
  const folders = words.flatMap((w) => (w.includes("/") ? w.split("/").slice(0, -1) : []));
  for (const name of [...names, ...folders]) {
    const agent = OFFLINE_AGENTS.find((a) => AGENT_COMMANDS[a].test(name));
    if (agent) return agent;
  }
  return undefined;
}

const apis = new Map<OfflineAgent, Promise<string>>();

/** The URL of the offline model's API for `agent`, started on first call. */
function apiUrl(agent: OfflineAgent): Promise<string> {
  let url = apis.get(agent);
  if (!url) {
    // No controls: a long-lived server would keep every request, and a web page could script it.
    // A secret path: only the agents given the URL may call (any local process can reach the port).
    const options = { controls: false, secret: true };
    const server =
      agent === "gemini"
        ? startFakeGeminiApi(0, { fallback: scriptedTurn, ...options })
        : agent === "qwen"
          ? startOpenAiApi(offersTools, 0, { fallback: scriptedChatTurn, ...options })
          : agent === "claude"
            ? startAnthropicApi(offersTools, 0, { fallback: scriptedMessagesTurn, ...options })
            : startResponsesApi(offersTools, 0, { fallback: scriptedResponsesTurn, ...options });
    url = server.then((s) => {
      // The agent keeps the process up while it runs; the model alone must not.
      s.unref();
      return s.url;
    });
    apis.set(agent, url);
  }
  return url;
}

/**
 * Variables a user's own set-up may hold that would send an agent elsewhere
 * (Vertex, Code Assist, Bedrock, a real key): blanked for the offline agent.
 */
const BLANKED: Record<OfflineAgent, string[]> = {
  gemini: [
    "GOOGLE_API_KEY",
    "GOOGLE_GENAI_USE_VERTEXAI",
    "GOOGLE_GENAI_USE_GCA",
    "GOOGLE_CLOUD_PROJECT",
    "GOOGLE_APPLICATION_CREDENTIALS",
  ],
  qwen: ["OPENAI_ORG_ID", "OPENAI_PROJECT", "DASHSCOPE_API_KEY"],
  claude: ["ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "ANTHROPIC_MODEL"],
  codex: ["OPENAI_API_KEY", "OPENAI_BASE_URL"],
};

/** The folder of the offline model's homes for an agent (one per run), under the data directory. */
export const offlineHome = (dataDir: string, agent: OfflineAgent) => path.join(dataDir, `offline-${agent}-home`);
/** The folder of the offline model's Gemini homes (the built-in gemini-offline profile's). */
export const offlineGeminiHome = (dataDir: string) => offlineHome(dataDir, "gemini");

/** A run's home: named by the process that made it, so a later start knows a leftover. */
const RUN_HOME = /^(\d+)-[0-9a-f]{16}$/;
/** The names of the homes this process made. */
const ours = new Set<string>();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Removes what `homes` holds but a running process's run home: the homes of processes that are
 * gone, and anything else (the one shared home of earlier versions, with its conversations).
 */
export function removeLeftoverHomes(homes: string): void {
  let names: string[];
  try {
    names = readdirSync(homes);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(RUN_HOME.exec(name)?.[1]);
    // This pid's homes are this process's only if it made them: a restarted container's relay has the same pid.
    const running = pid === process.pid ? ours.has(name) : pid > 0 && alive(pid);
    if (!running) rmSync(path.join(homes, name), { recursive: true, force: true });
  }
}

/** A new home for one run of `agent` (private), leftovers of earlier runs removed first. */
function runHome(dataDir: string, agent: OfflineAgent): string {
  return newRunFolder(offlineHome(dataDir, agent));
}

/** A new private folder for one run under `homes`, named by this process; leftovers of gone processes removed first. */
export function newRunFolder(homes: string): string {
  removeLeftoverHomes(homes);
  const name = `${process.pid}-${randomBytes(8).toString("hex")}`;
  ours.add(name);
  const home = path.join(homes, name);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return home;
}

/** Writes `home`/`file` as JSON, making its folder private. */
function writeSettings(home: string, file: string, settings: unknown): void {
  mkdirSync(path.dirname(path.join(home, file)), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(home, file), JSON.stringify(settings));
}

/** The agent's own variables: its API's base URL and a dummy key, its home (prepared), no telemetry or updates. */
function agentEnv(agent: OfflineAgent, home: string, url: string): Record<string, string> {
  switch (agent) {
    case "gemini":
      return { ...prepareGeminiHome(home, url), GEMINI_API_KEY: "offline-model" };
    case "qwen":
      // Without an auth type chosen in its settings, Qwen Code asks for a login at session/new; without
      // an approval mode it runs every tool unasked ("auto"), and the first run would show no permission.
      writeSettings(home, ".qwen/settings.json", {
        tools: { approvalMode: "default" },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        security: { auth: { selectedType: "openai" } },
      });
      return {
        HOME: home,
        OPENAI_API_KEY: "offline-model",
        OPENAI_BASE_URL: `${url}/v1`,
        OPENAI_MODEL: "offline-model",
        NO_COLOR: "1",
      };
    case "claude":
      mkdirSync(path.join(home, ".claude"), { recursive: true, mode: 0o700 });
      return {
        HOME: home,
        // Set, not blanked: an empty value would not mean "the home's".
        CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
        ANTHROPIC_API_KEY: "offline-model",
        ANTHROPIC_BASE_URL: url,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        NO_COLOR: "1",
        // As root (a container) Claude Code ends every session/new unless told it is sandboxed.
        ...(process.getuid?.() === 0 ? { IS_SANDBOX: "1" } : {}),
      };
    case "codex":
      writeCodexHome(path.join(home, ".codex"), url, "offline-model");
      return { HOME: home, CODEX_HOME: path.join(home, ".codex"), NO_COLOR: "1", RUST_LOG: "error" };
  }
}

export interface OfflineLaunch {
  /** The agent's environment. */
  env: Record<string, string>;
  /** Its home for this run: the caller removes it when the agent has exited. */
  home: string;
}

/** What `agent` needs to talk to the offline model, in a home of its own; starts the model's API on first call. */
export async function offlineModel(agent: OfflineAgent, dataDir: string): Promise<OfflineLaunch> {
  const url = await apiUrl(agent);
  const home = runHome(dataDir, agent);
  return { env: modelEnv(agent, home, url), home };
}

function modelEnv(agent: OfflineAgent, home: string, url: string): Record<string, string> {
  return {
    ...Object.fromEntries(BLANKED[agent].map((name) => [name, ""])),
    ...agentEnv(agent, home, url),
    // The URL's secret under a secret-looking name: redacted wherever the agent prints its URL.
    ACP_PLAYGROUND_OFFLINE_MODEL_KEY: new URL(url).pathname.slice(1),
    // A proxy in the user's environment must not see (or refuse) calls to 127.0.0.1.
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
}

/** What a Gemini CLI needs to talk to the offline model (the built-in gemini-offline profile). */
export const offlineGemini = (dataDir: string) => offlineModel("gemini", dataDir);
