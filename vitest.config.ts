import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/** Mocks a module (node:fs), which only holds in a worker of its own. */
const MOCKS_MODULES = ["server/http/compare-api.test.ts"];

export default defineConfig({
  // The browser code imports lib/ as "@/lib/...", as tsconfig.json maps it.
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    // Three files at a time on this machine's two cores: an integration file often waits on an agent
    // or a timer (in a fresh-clone CI run, 233 s against 253 s for two). Every integration test starts its own
    // fake model APIs on port 0, its own HOME, data directory and workspace, so files share nothing.
    maxWorkers: 3,
    // Installs the pinned third-party agents (test/agents) on a fresh clone.
    globalSetup: ["test/agents/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "server/**/*.test.ts", "components/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...MOCKS_MODULES],
          // Pure code and in-process servers: one module graph per worker, not one per file
          // (importing it again for each of 120 files took most of their time).
          isolate: false,
        },
      },
      {
        extends: true,
        // React components in a DOM (jsdom), rendered with Testing Library: the cards people act on.
        test: {
          name: "components",
          include: ["components/**/*.test.tsx"],
          environment: "jsdom",
          setupFiles: ["test/component-setup.ts"],
        },
      },
      {
        extends: true,
        // Real agents (Gemini CLI, the pinned third-party agents) and whole relays; each file in a fresh worker.
        test: {
          name: "integration",
          include: ["test/**/*.test.ts", ...MOCKS_MODULES],
        },
      },
    ],
  },
});
