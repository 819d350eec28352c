/**
 * Test harness: the profile `silent`, an agent that never answers `initialize` (a command waits on
 * it) and ends when its stdin closes, adding its pid to a file once started (a command may start
 * several: compare starts one a side). Each one started is stopped by `stopAll`, whatever the test did.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export class SilentAgents {
  private readonly pidFiles: string[] = [];

  /** Writes DIR/config.json with the profile `silent`; returns the file its agents add their pids to. */
  configIn(dir: string): string {
    const pidFile = path.join(dir, "agent.pid");
    this.pidFiles.push(pidFile);
    const agent = `require("fs").appendFileSync(${JSON.stringify(pidFile)}, process.pid + "\\n");
      process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`;
    writeFileSync(
      path.join(dir, "config.json"),
      JSON.stringify({ profiles: { silent: { command: process.execPath, args: ["-e", agent] } } }),
    );
    return pidFile;
  }

  /** The pids of the agents started so far that wrote `pidFile`. */
  started(pidFile: string): number[] {
    if (!existsSync(pidFile)) return [];
    return readFileSync(pidFile, "utf8").split("\n").filter(Boolean).map(Number);
  }

  /** Whether `pid` is still an agent that wrote `pidFile` (its pid may be another process's by now). */
  private alive(pid: number, pidFile: string): boolean {
    const cmdline = `/proc/${pid}/cmdline`;
    try {
      return readFileSync(cmdline, "utf8").includes(pidFile);
    } catch {
      return false;
    }
  }

  /** Resolves once every agent that wrote `pidFile` has ended (its stdin closed), so none writes after the test. */
  async ended(pidFile: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.started(pidFile).some((pid) => this.alive(pid, pidFile))) {
      if (Date.now() > deadline) throw new Error(`an agent of ${pidFile} did not end when its stdin closed`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  stopAll(): void {
    for (const file of this.pidFiles)
      for (const pid of this.started(file)) if (this.alive(pid, file)) process.kill(pid, "SIGKILL");
  }
}
