import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The browser code imports lib/ as "@/lib/...", as tsconfig.json maps it.
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["lib/**/*.test.ts", "server/**/*.test.ts", "components/**/*.test.ts", "test/**/*.test.ts"],
    // Integration tests spawn real Gemini CLIs (~200-400 MB each): keep it to one file at a time.
    fileParallelism: false,
    // Installs the pinned third-party agents (test/agents) on a fresh clone.
    globalSetup: ["test/agents/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
