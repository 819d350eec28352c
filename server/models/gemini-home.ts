/** A throw-away HOME for the Gemini CLI (tests, the offline model): no real credentials, no usage statistics. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface GeminiHome {
  home: string;
  env: Record<string, string>;
  cleanup(): void;
}

export function makeGeminiHome(apiUrl: string, prefix = "acp-gemini-home-"): GeminiHome {
  const home = mkdtempSync(path.join(tmpdir(), prefix));
  mkdirSync(path.join(home, ".gemini"), { recursive: true });
  writeFileSync(
    path.join(home, ".gemini", "settings.json"),
    JSON.stringify({ privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }),
  );
  return {
    home,
    env: {
      HOME: home,
      GEMINI_CLI_HOME: home,
      GEMINI_API_KEY: "test-key",
      GOOGLE_GEMINI_BASE_URL: apiUrl,
      NO_COLOR: "1",
    },
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}
