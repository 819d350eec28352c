import { execFileSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkDataDir, DiscoveryError, findRelay, relayFile, tokenFile, writeRelayDiscovery } from "./tap-discovery";

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
    writeFileSync(relayFile(dir), JSON.stringify({ url: "http://127.0.0.1:4321", pid: 2 ** 30 }), { mode: 0o600 });
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

describe("not trusting what others could have planted in the data directory", () => {
  const relay = (dir: string) => writeRelayDiscovery(dir, "http://127.0.0.1:4321", "s3cret");
  /** A file of the victim's that a planted link points at. */
  const victim = () => {
    const file = path.join(temp(), "victim");
    writeFileSync(file, "precious\n", { mode: 0o644 });
    return file;
  };

  it("writes relay.json and the token 0600, through fresh temporary files that leave nothing behind", () => {
    const dir = temp();
    relay(dir);
    relay(dir); // over the first ones
    for (const file of [tokenFile(dir), relayFile(dir)]) {
      expect(lstatSync(file).isFile()).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    expect(readdirSync(dir).sort()).toEqual(["relay.json", "token"]);
  });

  it("never writes through a link planted at the files' names or at the old temporary names", () => {
    const dir = temp();
    const target = victim();
    for (const name of [
      "token",
      "relay.json",
      // The names the relay used to write through (predictable: its pid).
      `token.${process.pid}.tmp`,
      `relay.json.${process.pid}.tmp`,
    ])
      symlinkSync(target, path.join(dir, name));
    relay(dir);
    expect(readFileSync(target, "utf8")).toBe("precious\n");
    expect(statSync(target).mode & 0o777).toBe(0o644);
    // The links named after the files were replaced by the relay's own files.
    expect(lstatSync(tokenFile(dir)).isSymbolicLink()).toBe(false);
    expect(lstatSync(relayFile(dir)).isSymbolicLink()).toBe(false);
    expect(findRelay({}, dir)).toEqual({ url: "http://127.0.0.1:4321", token: "s3cret" });
  });

  it("refuses a relay.json others may write, naming it and the mode", () => {
    const dir = temp();
    relay(dir);
    chmodSync(relayFile(dir), 0o666);
    expect(() => findRelay({}, dir)).toThrow(DiscoveryError);
    expect(() => findRelay({}, dir)).toThrow(`${relayFile(dir)} is writable by group or others (mode 666)`);
    // Readable by others is no secret: the URL and pid only (relays before this wrote it 0644).
    chmodSync(relayFile(dir), 0o644);
    expect(findRelay({}, dir)).toEqual({ url: "http://127.0.0.1:4321", token: "s3cret" });
  });

  it("refuses a relay.json that is a symbolic link, even to a file of this user's naming a live relay", () => {
    const dir = temp();
    const elsewhere = temp();
    // A fake relay's file, with a live pid (this process): followed, it would get the conversation.
    writeFileSync(path.join(elsewhere, "relay.json"), JSON.stringify({ url: "http://127.0.0.1:1", pid: process.pid }), {
      mode: 0o600,
    });
    relay(dir);
    rmSync(relayFile(dir));
    symlinkSync(path.join(elsewhere, "relay.json"), relayFile(dir));
    expect(() => findRelay({}, dir)).toThrow(`${relayFile(dir)} is a symbolic link; not following it`);
  });

  it("refuses a token file that is a symbolic link, whether relay.json or the environment names the relay", () => {
    const dir = temp();
    const elsewhere = temp();
    writeFileSync(path.join(elsewhere, "token"), "planted", { mode: 0o600 });
    relay(dir);
    rmSync(tokenFile(dir));
    symlinkSync(path.join(elsewhere, "token"), tokenFile(dir));
    expect(() => findRelay({}, dir)).toThrow(`${tokenFile(dir)} is a symbolic link; not following it`);
    expect(() => findRelay({ ACP_PLAYGROUND_URL: "http://127.0.0.1:9" }, dir)).toThrow(/symbolic link/);
  });

  it("refuses a FIFO or a directory planted as relay.json, without hanging", () => {
    const dir = temp();
    relay(dir);
    rmSync(relayFile(dir));
    execFileSync("mkfifo", ["-m", "600", relayFile(dir)]);
    expect(() => findRelay({}, dir)).toThrow(`${relayFile(dir)} is not a regular file`);
    rmSync(relayFile(dir));
    mkdirSync(relayFile(dir), { mode: 0o700 });
    expect(() => findRelay({}, dir)).toThrow(DiscoveryError);
  });

  it("refuses a data directory others may write (reading and writing), and says how to fix it", () => {
    const dir = temp();
    relay(dir);
    chmodSync(dir, 0o777);
    expect(() => findRelay({}, dir)).toThrow(`the data directory ${dir} is writable by group or others (mode 777)`);
    expect(() => findRelay({ ACP_PLAYGROUND_URL: "http://127.0.0.1:9" }, dir)).toThrow(/chmod 700/);
    expect(() => relay(dir)).toThrow(DiscoveryError);
    chmodSync(dir, 0o770);
    expect(() => checkDataDir(dir)).toThrow(/group or others/);
    chmodSync(dir, 0o755);
    expect(findRelay({}, dir)).toEqual({ url: "http://127.0.0.1:4321", token: "s3cret" });
    // The token and URL from the environment need no file at all.
    chmodSync(dir, 0o777);
    expect(findRelay({ ACP_PLAYGROUND_URL: "http://127.0.0.1:9", ACP_PLAYGROUND_TOKEN: "t" }, dir)).toEqual({
      url: "http://127.0.0.1:9",
      token: "t",
    });
  });

  it("makes a missing data directory 0700, and refuses one that is not a directory", () => {
    const dir = path.join(temp(), "data");
    relay(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const file = path.join(temp(), "file");
    writeFileSync(file, "");
    expect(() => checkDataDir(file)).toThrow(/not a directory/);
  });
});
