import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DiscoveryError, findRelay, relayFile, tokenFile, writeRelayDiscovery } from "./tap-discovery";

const dirs: string[] = [];
const temp = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-discovery-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("finding the relay", () => {
  it("reads what the relay wrote: the URL, and the token from a file only its owner can read", () => {
    const dir = temp();
    writeRelayDiscovery(dir, "http://127.0.0.1:4321", "s3cret");
    expect(statSync(tokenFile(dir)).mode & 0o777).toBe(0o600);
    expect(findRelay({}, dir)).toEqual({ url: "http://127.0.0.1:4321", token: "s3cret" });
  });

  it("lets the environment name the relay and the token", () => {
    const dir = temp();
    writeRelayDiscovery(dir, "http://127.0.0.1:4321", "s3cret");
    expect(findRelay({ ACP_PLAYGROUND_URL: "http://127.0.0.1:9", ACP_PLAYGROUND_TOKEN: "t" }, dir)).toEqual({
      url: "http://127.0.0.1:9",
      token: "t",
    });
  });

  it("finds no relay when none ever ran, or the one that wrote relay.json is gone", () => {
    const dir = temp();
    expect(findRelay({}, dir)).toBeUndefined();
    writeRelayDiscovery(dir, "http://127.0.0.1:4321", "s3cret");
    // A pid no process has (above the kernel's pid_max).
    writeFileSync(relayFile(dir), JSON.stringify({ url: "http://127.0.0.1:4321", pid: 2 ** 30 }));
    expect(findRelay({}, dir)).toBeUndefined();
  });

  it("refuses a token file others can read, a missing token and a URL that is not http", () => {
    const dir = temp();
    writeRelayDiscovery(dir, "http://127.0.0.1:4321", "s3cret");
    chmodSync(tokenFile(dir), 0o644);
    expect(() => findRelay({}, dir)).toThrow(/readable by others/);
    rmSync(tokenFile(dir));
    expect(() => findRelay({}, dir)).toThrow(DiscoveryError);
    expect(() => findRelay({ ACP_PLAYGROUND_URL: "file:///etc/passwd", ACP_PLAYGROUND_TOKEN: "t" }, dir)).toThrow(
      /not an http/,
    );
  });
});
