/**
 * The third-party agents' profiles and HOMEs (see docs/agents.md), without any test
 * runner: the vitest journeys, the e2e global setup and scripts/agents-matrix.ts share them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ProfileConfig } from "../server/config";
import { writeCodexHome } from "../server/models/codex-home";

const bin = (name: string) => path.resolve(import.meta.dirname, "agents", "node_modules", ".bin", name);

export type AgentKind = "qwen" | "claude" | "sdk-example";

/** The profile each agent needs, given its fake API and HOME (see docs/agents.md). */
export function agentProfile(kind: AgentKind, apiUrl: string | undefined, home: string): ProfileConfig {
  const common = { HOME: home, NO_COLOR: "1" };
  switch (kind) {
    case "qwen":
      return {
        command: bin("qwen"),
        args: ["--acp", "--approval-mode", "default"],
        env: {
          ...common,
          OPENAI_API_KEY: "test-key",
          OPENAI_BASE_URL: `${apiUrl}/v1`,
          OPENAI_MODEL: "fake-model",
        },
        description: "Qwen Code (test/agents)",
      };
    case "claude":
      return {
        command: bin("claude-agent-acp"),
        args: [],
        env: {
          ...common,
          ANTHROPIC_API_KEY: "test-key",
          ANTHROPIC_BASE_URL: apiUrl!,
          // Claude Code refuses to skip permissions as root unless told it is sandboxed.
          IS_SANDBOX: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_AUTOUPDATER: "1",
        },
        description: "Claude's ACP adapter (test/agents)",
      };
    case "sdk-example":
      return {
        command: process.execPath,
        args: [
          path.resolve(import.meta.dirname, "agents/node_modules/@agentclientprotocol/sdk/dist/examples/agent.js"),
        ],
        env: common,
        description: "ACP SDK 1.x example agent (test/agents)",
      };
  }
}

export const AGENT_KINDS: readonly AgentKind[] = ["qwen", "claude", "sdk-example"];

/** Qwen Code's own turns, not its memory-extraction sub-agent that runs after a turn. */
export const isQwenMainLoop = (body: Record<string, unknown>): boolean => {
  const first = (body.messages as Array<{ role?: string; content?: unknown }> | undefined)?.[0];
  return first?.role === "system" && typeof first.content === "string" && first.content.startsWith("You are Qwen Code");
};

/** Prepares a throw-away HOME for an agent: no telemetry, no update check, no IDE mode. */
export function prepareAgentHome(kind: AgentKind, home: string): void {
  if (kind !== "qwen") return;
  mkdirSync(path.join(home, ".qwen"), { recursive: true });
  writeFileSync(
    path.join(home, ".qwen", "settings.json"),
    JSON.stringify({
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      security: { auth: { selectedType: "openai" } },
    }),
  );
}

/**
 * Codex's app-server (not an ACP agent: `protocol: "codex-app-server"`), offline: its CODEX_HOME
 * names a custom model provider at the fake Responses API, so no login is needed
 * (docs/app-server.md). Writes the config into `home`/.codex, turning on Codex's `features` named
 * (e.g. "request_permissions_tool", which offers the model request_permissions).
 */
export function codexProfile(apiUrl: string, home: string, features: readonly string[] = []): ProfileConfig {
  const codexHome = path.join(home, ".codex");
  const on = features.length ? ["[features]", ...features.map((f) => `${f} = true`), ""].join("\n") : "";
  writeCodexHome(codexHome, apiUrl, "fake-model", on);
  return {
    command: bin("codex"),
    args: ["app-server"],
    env: { HOME: home, CODEX_HOME: codexHome, NO_COLOR: "1", RUST_LOG: "error" },
    description: "Codex app-server (test/agents)",
    protocol: "codex-app-server",
  };
}

/**
 * The model's call that makes Codex (0.169 to 0.171) ask for a command approval: it asks only when
 * `exec_command` requests escalated permissions.
 */
export const codexEscalatedCommand = (cmd: string) => ({
  name: "exec_command",
  input: { cmd, sandbox_permissions: "require_escalated", justification: "The user asked for it." },
});
