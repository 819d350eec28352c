/**
 * One agent child process: owns its pipes and its process group. Parses
 * nothing beyond line boundaries; frames are made by the caller.
 */
import { execa, type ResultPromise } from "execa";
import { LineSplitter, type LineEvent } from "../lib/ndjson";
import type { RelayError } from "../lib/wire";
import { childEnv, stopTree, type Tree } from "./process-group";

export interface AgentProcessEvents {
  onLine(event: LineEvent): void;
  onStderr(text: string): void;
  onExit(code: number | null, signal: string | null): void;
}

export interface SpawnSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  maxLineBytes: number;
  killGraceMs: number;
}

export class SpawnError extends Error {
  constructor(readonly relayError: RelayError) {
    super(relayError.message);
  }
}

function spawnFailure(command: string, err: NodeJS.ErrnoException): RelayError {
  const reason =
    err.code === "ENOENT"
      ? `executable not found: ${command}`
      : err.code === "EACCES"
        ? `permission denied: ${command}`
        : `${err.code ?? "error"}: ${err.message}`;
  return { code: "spawn_failed", message: `Failed to start ACP agent: ${reason}` };
}

export interface GroupChild {
  child: ResultPromise;
  pid: number;
  tree: Tree;
}

/**
 * Spawns a child in its own process group (setsid) with raw byte pipes and the
 * environment of server/process-group.ts (the relay's variables out, a spawn
 * marker in), so the whole tree can be signalled at once. Resolves once it
 * has started; rejects with the spawn's errno error. The agent relay and the
 * tap both spawn through here.
 */
export function spawnGroup(spec: Pick<SpawnSpec, "command" | "args" | "cwd" | "env">): Promise<GroupChild> {
  const { env, marker } = childEnv(spec.env);
  const child = execa(spec.command, spec.args, {
    cwd: spec.cwd,
    env,
    extendEnv: false,
    detached: true,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    buffer: false,
    reject: false,
    cleanup: false,
    encoding: "buffer",
  });
  // execa's promise settles on exit; callers read the outcome from the 'exit' and 'close' events.
  child.catch(() => {});
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("spawn", () => resolve({ child, pid: child.pid!, tree: { pgid: child.pid!, marker } }));
  });
}

export class AgentProcess {
  private stopping?: Promise<void>;
  private exited = false;
  private closed!: Promise<void>;

  private constructor(
    private readonly child: ResultPromise,
    readonly pid: number,
    private readonly spec: SpawnSpec,
    private readonly tree: Tree,
  ) {}

  static async spawn(spec: SpawnSpec, events: AgentProcessEvents): Promise<AgentProcess> {
    let spawned: GroupChild;
    try {
      spawned = await spawnGroup(spec);
    } catch (err) {
      throw new SpawnError(spawnFailure(spec.command, err as NodeJS.ErrnoException));
    }
    const agent = new AgentProcess(spawned.child, spawned.pid, spec, spawned.tree);
    agent.wire(events);
    return agent;
  }

  private wire(events: AgentProcessEvents): void {
    const splitter = new LineSplitter(this.spec.maxLineBytes);
    this.child.stdout!.on("data", (chunk: Buffer) => {
      for (const event of splitter.push(chunk)) events.onLine(event);
    });
    this.child.stdout!.on("end", () => {
      for (const event of splitter.end()) events.onLine(event);
    });
    const decoder = new TextDecoder();
    this.child.stderr!.on("data", (chunk: Buffer) => events.onStderr(decoder.decode(chunk, { stream: true })));
    // EPIPE when the agent has gone: its exit is reported separately.
    this.child.stdin!.on("error", () => {});
    // The leader is gone; make sure no re-launched worker, nor anything it started, outlives it.
    this.child.once("exit", () => {
      this.stopping ??= stopTree(this.tree, this.spec.killGraceMs).catch(() => {});
    });
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
    const stdin = this.child.stdin!;
    if (this.stopping || stdin.destroyed || !stdin.writable) return false;
    stdin.write(`${line}\n`);
    return true;
  }

  /**
   * Closes stdin, then SIGTERM / SIGKILL to the whole group and every process
   * carrying this spawn's marker until none is left; resolves once the exit has
   * been reported.
   */
  async stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.child.stdin?.end();
      await stopTree(this.tree, this.spec.killGraceMs);
    })();
    await this.stopping;
    await this.closed;
  }
}
