/** CPU time of processes and threads from /proc (Linux), for benchmarks that count work per frame. */
import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";

/** The fields of a /proc stat file after the command's name (ppid is [1], utime [11], stime [12], cutime [13], cstime [14]). */
export function statFields(file: string): number[] {
  const f = readFileSync(file, "utf8");
  return f
    .slice(f.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
}

/** CPU time (user + system, ms; USER_HZ is 100) of a process's main thread, or with `all` of all its threads. */
export function cpuMs(pid: number, all = false): number {
  const f = statFields(all ? `/proc/${pid}/stat` : `/proc/${pid}/task/${pid}/stat`);
  return (f[11]! + f[12]!) * 10;
}

/** CPU time (ms) of a PostgreSQL server: the postmaster, its live backends and those that ended. */
export function serverCpuMs(postmaster: number): number {
  const own = statFields(`/proc/${postmaster}/stat`);
  let ms = (own[11]! + own[12]! + own[13]! + own[14]!) * 10;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const f = statFields(`/proc/${entry}/stat`);
      if (f[1] === postmaster) ms += (f[11]! + f[12]!) * 10;
    } catch {
      // gone meanwhile
    }
  }
  return ms;
}

/** The cluster's postmaster: the parent of a backend. */
export async function postmasterOf(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    return statFields(`/proc/${rows[0]!.pid}/stat`)[1]!;
  } finally {
    await client.end();
  }
}
