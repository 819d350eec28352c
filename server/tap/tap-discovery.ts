/**
 * How a tap finds the relay and proves it may talk to it, without a token on
 * any command line: the relay writes `<data dir>/relay.json` (its URL and pid)
 * and `<data dir>/token`, both mode 0600, when it starts; `ACP_PLAYGROUND_URL`
 * and `ACP_PLAYGROUND_TOKEN` override them.
 *
 * Whoever can write these files can send the tap's conversation (and the
 * token) anywhere, so neither side trusts the data directory blindly: it must
 * be this user's and not writable by group or others, the files are never
 * read through a symbolic link, must be this user's regular files, and are
 * written through a fresh temporary file (random name, O_EXCL|O_NOFOLLOW,
 * 0600) renamed into place, so nothing planted there is followed or reused.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from "node:fs";
import path from "node:path";
import { isAlive } from "../process-group";

export const tokenFile = (dataDir: string) => path.join(dataDir, "token");
export const relayFile = (dataDir: string) => path.join(dataDir, "relay.json");

export class DiscoveryError extends Error {}

/** Owners and modes mean nothing where there are no uids (Windows): checked wherever there are. */
const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
// 0 where the platform has no such flag (Windows): there the checks below are all that is left.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

const mode = (st: Stats) => (st.mode & 0o777).toString(8);

function checkOwner(what: string, st: Stats): void {
  if (uid !== undefined && st.uid !== uid)
    throw new DiscoveryError(`${what} belongs to another user (uid ${st.uid}, not ${uid}); not trusting it`);
}

/**
 * The data directory, only if it is this user's and no one else may add,
 * replace or remove files in it (through a symbolic link too: the link must
 * be this user's as well).
 */
export function checkDataDir(dataDir: string): void {
  let st: Stats;
  try {
    const link = lstatSync(dataDir);
    if (link.isSymbolicLink()) checkOwner(`the data directory ${dataDir} (a symbolic link)`, link);
    st = statSync(dataDir);
  } catch (err) {
    if (err instanceof DiscoveryError) throw err;
    throw new DiscoveryError(`cannot use the data directory ${dataDir}: ${(err as Error).message}`);
  }
  if (!st.isDirectory()) throw new DiscoveryError(`the data directory ${dataDir} is not a directory`);
  checkOwner(`the data directory ${dataDir}`, st);
  if (uid !== undefined && (st.mode & 0o022) !== 0)
    throw new DiscoveryError(
      `the data directory ${dataDir} is writable by group or others (mode ${mode(st)}); not trusting it (chmod 700 it)`,
    );
}

/**
 * A discovery file's text, or undefined when there is none. Refused: a
 * symbolic link (never followed), anything but a regular file, a file of
 * another user, one others may write, and with `secret` one others may read.
 */
function readOwnFile(file: string, secret: boolean): string | undefined {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted under the name does not hang the tap; it is refused below.
    fd = openSync(file, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP" || code === "EMLINK")
      throw new DiscoveryError(`${file} is a symbolic link; not following it (remove it and restart the relay)`);
    throw new DiscoveryError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    // The checks are on what was opened, so the file cannot be swapped between check and read.
    const st = fstatSync(fd);
    if (!st.isFile()) throw new DiscoveryError(`${file} is not a regular file; not using it`);
    checkOwner(file, st);
    if (uid !== undefined && (st.mode & 0o022) !== 0)
      throw new DiscoveryError(`${file} is writable by group or others (mode ${mode(st)}); not trusting it`);
    if (uid !== undefined && secret && (st.mode & 0o077) !== 0)
      throw new DiscoveryError(`${file} is readable by others (mode ${mode(st)}); chmod 600 it`);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces `file` with `text`, mode 0600: written to a new file of a random
 * name (O_EXCL|O_NOFOLLOW: never an existing file, never through a link),
 * then renamed over `file` (which replaces a link planted there, not what it
 * points to).
 */
function writeOwnFile(file: string, text: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(8).toString("hex")}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o600);
  try {
    try {
      fchmodSync(fd, 0o600); // whatever the umask
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already renamed, or gone
    }
    throw err;
  }
}

/**
 * Called by the relay once it listens. Throws DiscoveryError, writing nothing,
 * when the data directory is not one only this user can change.
 */
export function writeRelayDiscovery(dataDir: string, url: string, token: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  checkDataDir(dataDir);
  // The token first: a tap that finds relay.json finds its token with it.
  writeOwnFile(tokenFile(dataDir), token);
  writeOwnFile(relayFile(dataDir), JSON.stringify({ url, pid: process.pid }));
}

export interface RelayTarget {
  url: string;
  token: string;
}

/** Whether anything (a link too) has the name. */
function present(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The token file, only if no one but its owner (this user) can read or write it. */
function readTokenFile(dataDir: string): string {
  const file = tokenFile(dataDir);
  checkDataDir(dataDir);
  const text = readOwnFile(file, true);
  if (text === undefined)
    throw new DiscoveryError(`no token: set ACP_PLAYGROUND_TOKEN or start the relay (it writes ${file})`);
  const token = text.trim();
  if (!token) throw new DiscoveryError(`${file} is empty`);
  return token;
}

/**
 * Where the relay is, or undefined when none runs (no URL anywhere, or
 * relay.json names a process that is gone). Throws DiscoveryError when a relay
 * is named but cannot be trusted or its token cannot be used: the message
 * names the file and what is wrong with it.
 */
export function findRelay(env: Record<string, string | undefined>, dataDir: string): RelayTarget | undefined {
  let url = env.ACP_PLAYGROUND_URL;
  if (!url) {
    const file = relayFile(dataDir);
    // No relay ever ran here: nothing to check.
    if (!present(file)) return undefined;
    checkDataDir(dataDir);
    const text = readOwnFile(file, false);
    if (text === undefined) return undefined;
    let info: { url?: unknown; pid?: unknown } | null;
    try {
      info = JSON.parse(text) as typeof info;
    } catch {
      throw new DiscoveryError(`${file} is not valid JSON`);
    }
    if (typeof info !== "object" || info === null || typeof info.url !== "string")
      throw new DiscoveryError(`${file} has no url`);
    if (typeof info.pid === "number" && !isAlive(info.pid)) return undefined;
    url = info.url;
  }
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw new DiscoveryError(`relay URL is not an http(s) URL: ${url}`);
  }
  const token = env.ACP_PLAYGROUND_TOKEN || readTokenFile(dataDir);
  return { url, token };
}
