import { describe, expect, it, vi } from "vitest";
import { openBrowser, shouldOpenBrowser, type OpenContext } from "./open-browser";

const spawned = vi.hoisted(() => [] as Array<{ command: string; env: NodeJS.ProcessEnv | undefined }>);
vi.mock("node:child_process", () => ({
  spawn: (command: string, _args: string[], options: { env?: NodeJS.ProcessEnv }) => {
    spawned.push({ command, env: options.env });
    return { on: () => {}, unref: () => {} };
  },
}));

const desktop: OpenContext = { env: { DISPLAY: ":0" }, argv: [], platform: "linux", tty: true };

describe("shouldOpenBrowser", () => {
  it("opens in a desktop session watched from a terminal", () => {
    expect(shouldOpenBrowser(desktop)).toBe(true);
    expect(shouldOpenBrowser({ ...desktop, env: { WAYLAND_DISPLAY: "wayland-0" } })).toBe(true);
    expect(shouldOpenBrowser({ ...desktop, env: {}, platform: "darwin" })).toBe(true);
  });

  it("never without a display, in CI or tests, or when stdout is piped", () => {
    expect(shouldOpenBrowser({ ...desktop, env: {} })).toBe(false);
    expect(shouldOpenBrowser({ ...desktop, env: { DISPLAY: ":0", CI: "true" } })).toBe(false);
    expect(shouldOpenBrowser({ ...desktop, env: { DISPLAY: ":0", VITEST: "true" } })).toBe(false);
    expect(shouldOpenBrowser({ ...desktop, env: { DISPLAY: ":0", NODE_ENV: "test" } })).toBe(false);
    expect(shouldOpenBrowser({ ...desktop, tty: false })).toBe(false);
  });

  it("is turned off by --no-open or ACP_PLAYGROUND_OPEN=0, and forced by ACP_PLAYGROUND_OPEN=1", () => {
    expect(shouldOpenBrowser({ ...desktop, argv: ["serve", "--no-open"] })).toBe(false);
    expect(shouldOpenBrowser({ ...desktop, env: { DISPLAY: ":0", ACP_PLAYGROUND_OPEN: "0" } })).toBe(false);
    expect(shouldOpenBrowser({ ...desktop, env: { DISPLAY: ":0", ACP_PLAYGROUND_OPEN: "false" } })).toBe(false);
    expect(shouldOpenBrowser({ ...desktop, tty: false, env: { DISPLAY: ":0", ACP_PLAYGROUND_OPEN: "1" } })).toBe(true);
    // Forcing still needs a desktop to open a browser in.
    expect(shouldOpenBrowser({ ...desktop, env: { ACP_PLAYGROUND_OPEN: "1" } })).toBe(false);
  });
});

describe("openBrowser", () => {
  it("finds the opener in absolute PATH entries only, never in the workspace it runs in", () => {
    const saved = process.env.PATH;
    process.env.PATH = [".", "", "node_modules/.bin", "/usr/bin"].join(":");
    try {
      openBrowser("http://127.0.0.1:1/", "linux");
    } finally {
      process.env.PATH = saved;
    }
    expect(spawned).toEqual([{ command: "xdg-open", env: expect.objectContaining({ PATH: "/usr/bin" }) }]);
  });
});
