/**
 * Test harness: a throw-away PostgreSQL cluster from Debian's packages, in a temp directory, on a
 * free port with its unix socket in that directory, removed after (stop the whole server, remove
 * the directory). initdb refuses root: as root the cluster runs as the `postgres` user.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, skipUnlessInstalled } from "./server-process";

export interface PgCluster {
  /** A connection URL for a new database of its own. */
  url: string;
  /** A second database on the same server (for another test's own tables). */
  database(name: string): Promise<string>;
  /** Stops the server as a crash would (immediate: clients cut off); its data stays. */
  halt(): void;
  /** Starts it again on the same port. */
  restart(): void;
  stop(): void;
}

/** The directory of Debian's PostgreSQL binaries, or undefined when they are not installed. */
export function pgBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(root, versions[0], "bin");
}

/**
 * Why the PostgreSQL suites are skipped here, or undefined when they run. Outside CI a machine
 * without the binaries skips them; in CI (`CI=true`) their absence is a failure, not a skip.
 */
export function pgSkipReason(): string | undefined {
  return skipUnlessInstalled(
    pgBinDir() !== undefined,
    "PostgreSQL is not installed (/usr/lib/postgresql/*/bin/initdb)",
    "PostgreSQL is not installed (apt-get install postgresql): skipping the PostgreSQL store tests",
  );
}

/**
 * `password`: the `postgres` user has it and TCP connections must give it (SCRAM, as Debian's own
 * clusters ask); without it every connection is trusted.
 */
export async function startPgCluster({ password }: { password?: string } = {}): Promise<PgCluster> {
  const bin = pgBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed");
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), "acp-pg-"));
  const data = path.join(dir, "data");
  const as = (cmd: string, args: string[]) =>
    root
      ? execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args], { stdio: "pipe" })
      : execFileSync(path.join(bin, cmd), args, { stdio: "pipe" });
  const owner: [number, number] | undefined = root
    ? [
        Number(execFileSync("id", ["-u", "postgres"]).toString()),
        Number(execFileSync("id", ["-g", "postgres"]).toString()),
      ]
    : undefined;
  if (owner) chownSync(dir, ...owner);
  let started = false;
  const stop = () => {
    try {
      if (started) as("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"]);
    } finally {
      started = false;
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    const auth = ["--auth=trust"];
    if (password) {
      const pwfile = path.join(dir, "pw");
      writeFileSync(pwfile, password);
      if (root) chownSync(pwfile, ...owner!);
      auth.push("--auth-host=scram-sha-256", `--pwfile=${pwfile}`);
    }
    as("initdb", ["-D", data, "-U", "postgres", ...auth, "-E", "UTF8", "--locale=C.UTF-8", "-N"]);
    const port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    const start = () => {
      started = true;
      as("pg_ctl", ["start", "-D", data, "-w", "-t", "60", "-l", path.join(dir, "log"), "-o", options]);
    };
    const halt = () => {
      as("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"]);
      started = false;
    };
    start();
    const base = `postgres://postgres${password ? `:${encodeURIComponent(password)}` : ""}@127.0.0.1:${port}`;
    const database = async (name: string) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
      as("psql", ["-h", dir, "-p", String(port), "-U", "postgres", "-c", `CREATE DATABASE ${name}`]);
      return `${base}/${name}`;
    };
    return { url: await database("acp_test"), database, halt, restart: start, stop };
  } catch (err) {
    stop();
    throw err;
  }
}
