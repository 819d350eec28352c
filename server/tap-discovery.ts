/**
 * How a tap finds the relay and proves it may talk to it, without a token on
 * any command line: the relay writes `<data dir>/relay.json` (its URL and pid)
 * and `<data dir>/token` (mode 0600) when it starts; `ACP_PLAYGROUND_URL` and
 * `ACP_PLAYGROUND_TOKEN` override them.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isAlive } from "./process-group";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The data directory `npm start` uses: ACP_PLAYGROUND_DATA, else `data` in the
 * project (an editor starts the tap in the user's project, not ours).
 */
export function tapDataDir(env: Record<string, string | undefined>, cwd = process.cwd()): string {
  return env.ACP_PLAYGROUND_DATA ? path.resolve(cwd, env.ACP_PLAYGROUND_DATA) : path.join(projectRoot, "data");
}

export const tokenFile = (dataDir: string) => path.join(dataDir, "token");
export const relayFile = (dataDir: string) => path.join(dataDir, "relay.json");

/** Called by the relay once it listens. */
export function writeRelayDiscovery(dataDir: string, url: string, token: string): void {
  mkdirSync(dataDir, { recursive: true });
  const file = tokenFile(dataDir);
  // Created 0600 before the token goes in, so it is never readable by others, even briefly.
  const tmp = `${file}.${process.pid}.tmp`;
  closeSync(openSync(tmp, "w", 0o600));
  chmodSync(tmp, 0o600);
  writeFileSync(tmp, token);
  renameSync(tmp, file);
  const info = `${relayFile(dataDir)}.${process.pid}.tmp`;
  writeFileSync(info, JSON.stringify({ url, pid: process.pid }));
  renameSync(info, relayFile(dataDir));
}

export interface RelayTarget {
  url: string;
  token: string;
}

export class DiscoveryError extends Error {}

/** The token file, only if no one but its owner (this user) can read or write it. */
function readTokenFile(file: string): string {
  if (!existsSync(file))
    throw new DiscoveryError(`no token: set ACP_PLAYGROUND_TOKEN or start the relay (it writes ${file})`);
  const st = statSync(file);
  if (typeof process.getuid === "function" && st.uid !== process.getuid())
    throw new DiscoveryError(`${file} belongs to another user; not using it`);
  if ((st.mode & 0o077) !== 0)
    throw new DiscoveryError(`${file} is readable by others (mode ${(st.mode & 0o777).toString(8)}); chmod 600 it`);
  const token = readFileSync(file, "utf8").trim();
  if (!token) throw new DiscoveryError(`${file} is empty`);
  return token;
}

/**
 * Where the relay is, or undefined when none runs (no URL anywhere, or
 * relay.json names a process that is gone). Throws DiscoveryError when a relay
 * is named but its token cannot be used.
 */
export function findRelay(env: Record<string, string | undefined>, dataDir: string): RelayTarget | undefined {
  let url = env.ACP_PLAYGROUND_URL;
  if (!url) {
    const file = relayFile(dataDir);
    if (!existsSync(file)) return undefined;
    let info: { url?: unknown; pid?: unknown };
    try {
      info = JSON.parse(readFileSync(file, "utf8")) as typeof info;
    } catch {
      throw new DiscoveryError(`${file} is not valid JSON`);
    }
    if (typeof info.url !== "string") throw new DiscoveryError(`${file} has no url`);
    if (typeof info.pid === "number" && !isAlive(info.pid)) return undefined;
    url = info.url;
  }
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw new DiscoveryError(`relay URL is not an http(s) URL: ${url}`);
  }
  const token = env.ACP_PLAYGROUND_TOKEN || readTokenFile(tokenFile(dataDir));
  return { url, token };
}
