/**
 * Test harness: the profile `silent`, an agent that never answers `initialize` (a command waits on
 * it) and ends when its stdin closes, writing its pid to a file once started. Each one started is
 * stopped by `stopAll`, whatever the test did.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export class SilentAgents {
  private readonly pidFiles: string[] = [];

  /** Writes DIR/config.json with the profile `silent`; returns the file its agent writes its pid to. */
  configIn(dir: string): string {
    const pidFile = path.join(dir, "agent.pid");
    this.pidFiles.push(pidFile);
    const agent = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
      process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`;
    writeFileSync(
      path.join(dir, "config.json"),
      JSON.stringify({ profiles: { silent: { command: process.execPath, args: ["-e", agent] } } }),
    );
    return pidFile;
  }

  stopAll(): void {
    for (const file of this.pidFiles) {
      if (!existsSync(file)) continue;
      const pid = Number(readFileSync(file, "utf8"));
      // Still that agent (it ends when its stdin closes; its pid may be another process's by now).
      const cmdline = `/proc/${pid}/cmdline`;
      if (existsSync(cmdline) && readFileSync(cmdline, "utf8").includes(file)) process.kill(pid, "SIGKILL");
    }
  }
}
