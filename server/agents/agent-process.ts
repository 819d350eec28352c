/**
 * One agent child process: owns its pipes and its process group. Parses
 * nothing beyond line boundaries; frames are made by the caller.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { LineSplitter } from "../../lib/protocol/ndjson";
import type { RelayError } from "../../lib/contracts/wire";
import { childEnv, stopTree, type Tree } from "../process-group";
import { RelayFailure } from "../relay-failure";
import type { AgentConnection, AgentConnectionEvents, SpawnSpec } from "./agent-connection";

/** An agent that could not be started: its relay error is for whoever asked. */
export class SpawnError extends RelayFailure {}

/** The directories a command without a slash is looked for in. */
function searchedPath(command: string, env: Record<string, string | undefined>): string[] {
  return command.includes("/") ? [] : (env.PATH ?? "").split(path.delimiter).filter(Boolean);
}

function spawnFailure(
  command: string,
  env: Record<string, string | undefined>,
  err: NodeJS.ErrnoException,
): RelayError {
  if (err.code === "ENOENT") {
    const searched = searchedPath(command, env);
    return {
      code: "spawn_failed",
      message: `Failed to start ACP agent: executable not found: ${command}${searched.length ? ` (PATH searched: ${searched.join(path.delimiter)})` : ""}`,
      data: { start: { reason: "not-found", command, searched } },
    };
  }
  if (err.code === "EACCES")
    return {
      code: "spawn_failed",
      message: `Failed to start ACP agent: permission denied: ${command}`,
      data: { start: { reason: "not-executable", command, searched: [] } },
    };
  return { code: "spawn_failed", message: `Failed to start ACP agent: ${err.code ?? "error"}: ${err.message}` };
}

export interface GroupChild {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  /**
   * Stops the whole tree (SIGTERM, then SIGKILL after the grace period) once: the first call, or the
   * leader's exit, starts it, and every call returns that promise. It rejects when a process survives.
   */
  stopTree(): Promise<void>;
  /** Whether stopping the tree has begun. */
  readonly stopStarted: boolean;
}

/**
 * Spawns a child in its own process group (setsid) with raw byte pipes and the
 * environment of server/process-group.ts (the relay's variables out, a spawn
 * marker in), so the whole tree can be signalled at once. Resolves once it
 * has started; rejects with the spawn's errno error. The agent relay and the
 * tap both spawn through here. `onStopError` hears why the tree could not be stopped when the
 * leader's exit started the stop (an explicit `stopTree()` rejects instead).
 */
export function spawnGroup(
  spec: Pick<SpawnSpec, "command" | "args" | "cwd" | "env" | "killGraceMs">,
  onStopError: (err: Error) => void = () => {},
): Promise<GroupChild> {
  const { env, marker } = childEnv(spec.env);
  // node's own spawn, not execa: the tap spawns through here, and loading execa delays the editor's agent.
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: env as NodeJS.ProcessEnv,
    // Its own process group (setsid), so the whole tree can be signalled at once.
    detached: true,
    stdio: "pipe",
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("spawn", () => {
      // Later errors (a signal that could not be sent) are the stop's to report, never an uncaught event.
      child.on("error", () => {});
      const tree: Tree = { pgid: child.pid!, marker };
      let stopping: Promise<void> | undefined;
      const group: GroupChild = {
        child,
        pid: child.pid!,
        stopTree: () => (stopping ??= stopTree(tree, spec.killGraceMs)),
        get stopStarted() {
          return stopping !== undefined;
        },
      };
      // The leader is gone; no re-launched worker, nor anything it started, may outlive it (and keep the pipes open).
      child.once("exit", () => void group.stopTree().catch(onStopError));
      resolve(group);
    });
  });
}

export class AgentProcess implements AgentConnection {
  readonly remote = false;
  private exited = false;
  private closed!: Promise<void>;
  private readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;

  private constructor(
    private readonly group: GroupChild,
    private readonly spec: SpawnSpec,
  ) {
    this.child = group.child;
    this.pid = group.pid;
  }

  static async spawn(spec: SpawnSpec, events: AgentConnectionEvents): Promise<AgentProcess> {
    let spawned: GroupChild;
    try {
      spawned = await spawnGroup(spec);
    } catch (err) {
      throw new SpawnError(spawnFailure(spec.command, childEnv(spec.env).env, err as NodeJS.ErrnoException));
    }
    const agent = new AgentProcess(spawned, spec);
    agent.wire(events);
    return agent;
  }

  private wire(events: AgentConnectionEvents): void {
    const splitter = new LineSplitter(this.spec.maxLineBytes);
    this.child.stdout.on("data", (chunk: Buffer) => {
      for (const event of splitter.push(chunk)) events.onLine(event);
    });
    this.child.stdout.on("end", () => {
      for (const event of splitter.end()) events.onLine(event);
    });
    const decoder = new TextDecoder();
    this.child.stderr.on("data", (chunk: Buffer) => events.onStderr(decoder.decode(chunk, { stream: true })));
    // EPIPE when the agent has gone: its exit is reported separately.
    this.child.stdin.on("error", () => {});
    // 'close' comes after the exit and after stdout is drained.
    this.closed = new Promise((resolve) => {
      this.child.once("close", (code: number | null, signal: NodeJS.Signals | null) => {
        this.exited = true;
        events.onExit(code, signal);
        resolve();
      });
    });
  }

  get running(): boolean {
    return !this.exited;
  }

  /** Writes one line; false when the agent's stdin is closed. */
  write(line: string): boolean {
    const stdin = this.child.stdin;
    if (this.group.stopStarted || stdin.destroyed || !stdin.writable) return false;
    stdin.write(`${line}\n`);
    return true;
  }

  /** Closes stdin only: a well-behaved agent exits on its own. */
  endInput(): void {
    this.child.stdin.end();
  }

  /**
   * Closes stdin, then SIGTERM / SIGKILL to the whole group and every process
   * carrying this spawn's marker until none is left; resolves once the exit has
   * been reported.
   */
  async stop(): Promise<void> {
    this.child.stdin?.end();
    await this.group.stopTree();
    await this.closed;
  }
}
