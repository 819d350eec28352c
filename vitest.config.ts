import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["lib/**/*.test.ts", "server/**/*.test.ts", "test/**/*.test.ts"],
    // Integration tests spawn real Gemini CLIs (~200-400 MB each): keep it to one file at a time.
    fileParallelism: false,
    // Installs the pinned third-party agents (test/agents) on a fresh clone.
    globalSetup: ["test/agents/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
