import { createServer } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { groupMembers } from "../server/process-group";
import { freePort, skipUnlessInstalled, spawnGroup } from "./server-process";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("server-process", () => {
  it("stops the whole group, what the leader started included", async () => {
    // The shell starts a sleep in the background (same group) and then waits on a second one.
    const { child, stop } = spawnGroup("sh", ["-c", "sleep 60 & sleep 60"], { stdio: "ignore" });
    const pgid = child.pid!;
    await vi.waitFor(() => expect(groupMembers(pgid).length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    await stop();
    expect(groupMembers(pgid)).toEqual([]);
    // Twice is harmless: a test's cleanup may stop a server its body stopped already.
    await stop();
  });

  it("finds a port nothing listens on, which a server can then take", async () => {
    const port = await freePort();
    const s = createServer();
    await new Promise<void>((resolve, reject) => {
      s.once("error", reject);
      s.listen(port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => s.close(resolve));
  });

  it("skips a missing server outside CI, saying why, and fails in CI", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.stubEnv("CI", "");
    expect(skipUnlessInstalled(true, "x is missing", "no x")).toBeUndefined();
    expect(skipUnlessInstalled(false, "x is missing", "no x")).toBe("no x");
    expect(warn).toHaveBeenCalledWith("no x");
    vi.stubEnv("CI", "true");
    expect(() => skipUnlessInstalled(false, "x is missing", "no x")).toThrow(
      "CI=true but x is missing: .ci/run installs it",
    );
  });
});
