/** A throw-away HOME for the Gemini CLI (tests, the offline model): no real credentials, no usage statistics. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface GeminiHome {
  home: string;
  env: Record<string, string>;
  cleanup(): void;
}

/** Makes `home` a Gemini CLI home (settings without statistics) and gives the environment that uses it. */
export function prepareGeminiHome(home: string, apiUrl: string): Record<string, string> {
  mkdirSync(path.join(home, ".gemini"), { recursive: true, mode: 0o700 });
  writeFileSync(
    path.join(home, ".gemini", "settings.json"),
    JSON.stringify({ privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }),
  );
  return {
    HOME: home,
    GEMINI_CLI_HOME: home,
    GEMINI_API_KEY: "test-key",
    GOOGLE_GEMINI_BASE_URL: apiUrl,
    NO_COLOR: "1",
  };
}

export function makeGeminiHome(apiUrl: string): GeminiHome {
  const home = mkdtempSync(path.join(tmpdir(), "acp-gemini-home-"));
  return { home, env: prepareGeminiHome(home, apiUrl), cleanup: () => rmSync(home, { recursive: true, force: true }) };
}
