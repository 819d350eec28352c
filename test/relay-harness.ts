/**
 * Test harness: a relay (without Next pages) on 127.0.0.1:0 and socket.io
 * clients that collect frames and wait on them, never on fixed sleeps.
 */
import { execa, type ResultPromise } from "execa";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { io, type Socket } from "socket.io-client";
import type { Frame } from "../lib/protocol/frame";
import { withMessage } from "../lib/folds/frame-log";
import type {
  AgentInfo,
  ClientToServerEvents,
  ExitEvent,
  RelayError,
  ServerToClientEvents,
} from "../lib/contracts/wire";
import { createAppServer, type AppServer } from "../server/http/app-server";
import { loadConfig, type ServerConfig } from "../server/config";

const projectRoot = path.resolve(import.meta.dirname, "..");

export interface TestRelay {
  url: string;
  config: ServerConfig;
  server: AppServer;
  close(): Promise<void>;
}

export async function startTestRelay(overrides: Partial<ServerConfig> = {}, cwd = process.cwd()): Promise<TestRelay> {
  const config: ServerConfig = {
    ...loadConfig(
      {
        ...process.env,
        ACP_PLAYGROUND_CONFIG: "",
        ACP_PLAYGROUND_TOKEN: "test-token",
        ACP_PLAYGROUND_DATA: mkdtempSync(path.join(tmpdir(), "acp-data-")),
      },
      cwd,
    ),
    port: 0,
    // No warm agents unless a test asks for them.
    pool: {},
    ...overrides,
  };
  const server = createAppServer(config);
  await new Promise<void>((resolve) => server.http.listen(0, "127.0.0.1", resolve));
  const { port } = server.http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    config,
    server,
    close: async () => {
      await server.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A relay client that keeps everything it is sent. */
export class TestClient {
  readonly socket: ClientSocket;
  readonly frames: Frame[] = [];
  readonly stderr: string[] = [];
  readonly exits: ExitEvent[] = [];
  readonly errors: RelayError[] = [];
  clientId?: string;
  private waiters = new Set<() => void>();

  constructor(url: string, auth: Record<string, unknown>, extra: Parameters<typeof io>[1] = {}) {
    this.socket = io(url, { auth, transports: ["websocket"], reconnection: false, forceNew: true, ...extra });
    this.socket.on("frames", (frames) => {
      // As the browser does: the relay sends no `message`, the client parses `raw`.
      this.frames.push(...frames.map((f) => withMessage({ ...f })));
      this.notify();
    });
    this.socket.on("relay:hello", (e) => {
      this.clientId = e.clientId;
      this.notify();
    });
    this.socket.on("agent:stderr", (e) => {
      this.stderr.push(e.text);
      this.notify();
    });
    this.socket.on("agent:error", (e) => {
      this.errors.push(e);
      this.notify();
    });
    this.socket.on("agent:exit", (e) => {
      this.exits.push(e);
      this.notify();
    });
  }

  /** Re-checks every `waitFor`: called on each event that changes what this client keeps. */
  protected notify(): void {
    for (const w of this.waiters) w();
  }

  connected(timeoutMs = 30_000): Promise<void> {
    if (this.socket.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not connected within ${timeoutMs} ms`)), timeoutMs);
      this.socket.once("connect", () => {
        clearTimeout(timer);
        resolve();
      });
      this.socket.once("connect_error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }

  /** Resolves once `check` returns a value, re-checked on every event. */
  waitFor<T>(check: () => T | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = () => {
        const value = check();
        if (value !== undefined && value !== false) {
          cleanup();
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `timed out waiting for ${what}; last frames:\n${this.frames
              .slice(-5)
              .map((f) => f.raw.slice(0, 300))
              .join("\n")}`,
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(attempt);
      };
      this.waiters.add(attempt);
      attempt();
    });
  }

  frame(pred: (f: Frame) => boolean, what: string, timeoutMs?: number): Promise<Frame> {
    return this.waitFor(() => this.frames.find(pred), what, timeoutMs);
  }

  response(id: number | string, timeoutMs?: number): Promise<Frame> {
    return this.frame(
      (f) => f.dir === "from-agent" && f.kind === "response" && f.id === id,
      `response ${id}`,
      timeoutMs,
    );
  }

  /** Emits and waits for the ack; a relay that never answers fails the call, named, before the test's own timeout. */
  async emit<E extends keyof ClientToServerEvents>(event: E, payload: unknown, timeoutMs = 45_000): Promise<any> {
    try {
      return await (this.socket as unknown as Socket).timeout(timeoutMs).emitWithAck(event, payload);
    } catch (err) {
      throw new Error(
        `${event}: no ack within ${timeoutMs} ms (socket ${this.socket.connected ? "connected" : "disconnected"}): ${String(err)}`,
      );
    }
  }

  async start(payload: Record<string, unknown> = {}): Promise<AgentInfo> {
    const ack = await this.emit("agent:start", payload);
    if (!ack.ok) throw new Error(`agent:start failed: ${ack.error.message}`);
    return ack.agent as AgentInfo;
  }

  async send(frame: unknown): Promise<number> {
    const ack = await this.emit("agent:send", { frame });
    if (!ack.ok) throw new Error(`agent:send failed: ${ack.error.message}`);
    return ack.seq as number;
  }

  /** Sends initialize (id 1) with these capabilities and waits for the agent's answer. */
  async initialize(clientCapabilities: object = {}): Promise<Frame> {
    await this.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities },
    });
    return this.response(1);
  }

  /** Sends session/new (id 2) in `cwd`, no MCP servers: the new session's id. */
  async newSession(cwd: string): Promise<string> {
    await this.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd, mcpServers: [] } });
    return ((await this.response(2)).message as { result: { sessionId: string } }).result.sessionId;
  }

  close(): void {
    this.socket.close();
  }
}

/** Pids of a process and all its descendants, from /proc. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z") continue;
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(root);
  return out;
}

export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

export async function waitUntil(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface RelayProcess {
  url: string;
  /** The line the relay printed its URL on. */
  banner: string;
  pid: number;
  child: ResultPromise;
  dataDir: string;
  rssKb(): number;
  /** The last few KiB it printed on stderr so far. */
  stderrTail(): string;
  close(): Promise<void>;
}

/**
 * Starts test/fixtures/relay-server.ts (the relay without pages, wired to signals
 * like npm start), or another fixture `script`, in its own process, token
 * "bench", with the given profiles.
 */
export async function startRelayProcess(
  profiles: Record<string, { command: string; args: string[] }>,
  env: Record<string, string> = {},
  script = "test/fixtures/relay-server.ts",
): Promise<RelayProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-relay-"));
  const configFile = path.join(dir, "config.json");
  writeFileSync(configFile, JSON.stringify({ profiles, workspaceRoots: [projectRoot], pool: {} }));
  const child = execa(
    process.execPath,
    [...(process.env.RELAY_NODE_ARGS?.split(" ").filter(Boolean) ?? []), "--import", "tsx", script],
    {
      cwd: projectRoot,
      env: {
        ACP_PLAYGROUND_TOKEN: "bench",
        ACP_PLAYGROUND_CONFIG: configFile,
        ACP_PLAYGROUND_DATA: path.join(dir, "data"),
        ...env,
      },
      reject: false,
    },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr = (stderr + String(d)).slice(-4_096);
  });
  const banner = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      const line = String(d)
        .split("\n")
        .find((l) => /http:\/\/127\.0\.0\.1:\d+/.test(l));
      if (line) resolve(line);
    });
    child.once("exit", () => reject(new Error("relay exited early")));
  });
  return {
    url: /http:\/\/127\.0\.0\.1:\d+/.exec(banner)![0],
    banner,
    pid: child.pid!,
    child,
    dataDir: dir,
    stderrTail: () => stderr,
    rssKb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? NaN),
    async close() {
      if (child.exitCode === null) child.kill("SIGTERM");
      // A relay that does not exit is a failure to report with what it printed, not a test hung until its timeout.
      let timer: NodeJS.Timeout | undefined;
      const exited = await Promise.race([
        child.then(() => true),
        new Promise((r) => (timer = setTimeout(r, 20_000, false))),
      ]);
      // Cleared, or a finished process (a benchmark) would wait out the timer before exiting.
      clearTimeout(timer);
      if (!exited) {
        const tree = processTree(child.pid!);
        for (const pid of tree) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // already gone
          }
        }
        const { stdout, stderr } = await child;
        throw new Error(
          `the relay (pid ${child.pid}) did not exit within 20 s of SIGTERM; still running: ${tree.join(",")}\n` +
            `stdout: ${String(stdout).slice(-4000)}\nstderr: ${String(stderr).slice(-4000)}`,
        );
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
