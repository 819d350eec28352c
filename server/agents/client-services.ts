/**
 * The client side of ACP that the relay can carry out for an agent: text files
 * and terminals, confined to the agent's workspace. Errors are JSON-RPC error
 * bodies, never null results (Gemini breaks on null).
 */
import type {
  CreateTerminalRequest,
  ReadTextFileRequest,
  TerminalOutputRequest,
  WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import { execa, type ResultPromise } from "execa";
import { randomUUID } from "node:crypto";
import { constants, readFileSync, type Stats } from "node:fs";
import { mkdir, open, realpath, type FileHandle } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { truncateOutput } from "../../lib/features/answers/policy";
import { type RpcError } from "../../lib/protocol/jsonrpc";
import {
  createSchemaSet,
  SCHEMA_FILE_PATHS,
  type CheckOptions,
  type SchemaSet,
  type SchemaVariant,
} from "../../lib/protocol/schema-check";
import { childEnv, stopTree, type Tree } from "../process-group";
import { isInside, isInsideDataDir } from "../workspace";
import { CLIENT_METHODS } from "../../lib/protocol/methods";

export class ServiceError extends Error {
  constructor(readonly body: RpcError) {
    super(body.message);
  }
}

const invalidParams = (message: string) => new ServiceError({ code: -32602, message: `Invalid params: ${message}` });
const notFound = (uri: string) =>
  new ServiceError({ code: -32002, message: `Resource not found: ${uri}`, data: { uri } });
const outside = (p: string) => new ServiceError({ code: -32000, message: `path is outside the workspace: ${p}` });
const refused = (p: string, why: string) => new ServiceError({ code: -32000, message: `${why}: ${p}` });
const inDataDir = (p: string) =>
  new ServiceError({
    code: -32000,
    message: `${p} is inside the playground's data directory (its token and transcripts), which is never served to an agent`,
  });

let sdkSchemas: SchemaSet | undefined;

/**
 * The SDK's own JSON Schemas decide whether an agent's request is well formed,
 * by the one validity rule (lib/protocol/schema-check.ts: the variant that
 * defines the method judges it); loaded on the first request, not at start.
 */
export function schemaSet(): SchemaSet {
  return (sdkSchemas ??= createSchemaSet({
    stable: sdkSchemaFile("stable"),
    unstable: sdkSchemaFile("unstable"),
    v2: sdkSchemaFile("v2"),
  }));
}

/** One of the SDK's JSON Schema files, read from the installed package (the relay's one loader of them). */
export function sdkSchemaFile(variant: SchemaVariant): unknown {
  const file = createRequire(import.meta.url).resolve(SCHEMA_FILE_PATHS[variant]);
  return JSON.parse(readFileSync(file, "utf8"));
}

/**
 * Why an agent request's params break the SDK schema (JSON-RPC -32602, `data.issues`
 * naming each field), or undefined when they fit or the method has no schema.
 */
export function agentRequestError(method: string, params: unknown, opts?: CheckOptions): RpcError | undefined {
  const frame = { seq: 0, ts: 0, dir: "from-agent", raw: "", kind: "request", method, message: { params } } as const;
  const verdict = schemaSet().check(frame, opts);
  // A method no schema defines is not this check's to refuse (policies decide unknown methods).
  if (!verdict?.variant || !verdict.issues.length) return undefined;
  const issues = verdict.issues;
  const named = issues.map((i) => `${i.path}: ${i.message}`).join("; ");
  return { code: -32602, message: `Invalid params: ${named}`, data: { issues, schema: verdict.variant } };
}

/** What a file is, for the error that refuses it. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/** Never follow a link in the last component; never wait for a FIFO's other end. */
const NO_FOLLOW = constants.O_NOFOLLOW | constants.O_NONBLOCK;

const MIB = 1024 * 1024;

export interface ServiceLimits {
  /** Between SIGTERM and SIGKILL when a terminal is stopped. */
  killGraceMs: number;
  /** The most one fs/read_text_file returns, in bytes. */
  maxReadBytes: number;
  /** Terminal output kept when the agent gives no (or a larger) outputByteLimit. */
  terminalOutputBytes: number;
}

export interface ServiceOptions extends Partial<ServiceLimits> {
  /** The playground's data directory (config.dataDir): nothing inside it is served, wherever it lies. */
  dataDir: string;
}

export const DEFAULT_SERVICE_LIMITS: ServiceLimits = {
  killGraceMs: 2_000,
  maxReadBytes: 10 * MIB,
  terminalOutputBytes: 1 * MIB,
};

interface Terminal {
  child: ResultPromise;
  tree: Tree;
  output: string;
  /** Output was dropped from the start. */
  truncated: boolean;
  exit?: { exitCode: number | null; signal: string | null };
  exited: Promise<void>;
  limit: number;
}

export class ClientServices {
  private readonly terminals = new Map<string, Terminal>();
  private readonly limits: ServiceLimits;
  private readonly dataDir: string;

  /** `workspace` is the agent's working directory (a real path). */
  constructor(
    private readonly workspace: string,
    { dataDir, ...limits }: ServiceOptions,
  ) {
    this.dataDir = dataDir;
    this.limits = { ...DEFAULT_SERVICE_LIMITS, ...limits };
  }

  /** Refuses a resolved path inside the data directory (`shown` is what the agent named). */
  private async notDataDir(resolved: string, shown: string): Promise<string> {
    if (await isInsideDataDir(this.dataDir, resolved)) throw inDataDir(shown);
    return resolved;
  }

  /**
   * Resolves a path the agent names to its real parent directory plus its last
   * component, which the caller opens without following a link. The parent may
   * be reached through links, as long as it is inside the workspace and not
   * inside the data directory.
   */
  private async confine(p: string, forWrite: boolean): Promise<string> {
    if (!path.isAbsolute(p)) throw invalidParams(`path must be absolute: ${p}`);
    const wanted = path.resolve(p);
    if (!isInside(this.workspace, wanted)) throw outside(p);
    const name = path.basename(wanted);
    // A new file's directories are created: the nearest existing ancestor must be inside.
    let dir = path.dirname(wanted);
    for (;;) {
      let real: string;
      try {
        real = await realpath(dir);
      } catch {
        if (!forWrite) throw notFound(p);
        dir = path.dirname(dir);
        continue;
      }
      if (!isInside(this.workspace, real)) throw outside(p);
      return this.notDataDir(path.join(real, path.relative(dir, path.dirname(wanted)), name), p);
    }
  }

  /** A directory the agent names (a terminal's cwd): links followed, must stay inside, never in the data directory. */
  private async confineDir(p: string): Promise<string> {
    if (!path.isAbsolute(p)) throw invalidParams(`path must be absolute: ${p}`);
    let real: string;
    try {
      real = await realpath(path.resolve(p));
    } catch {
      throw notFound(p);
    }
    if (!isInside(this.workspace, real)) throw outside(p);
    return this.notDataDir(real, p);
  }

  /** Opens the last component without following it; refuses links and anything but a regular file. */
  private async openRegular(file: string, flags: number, shown: string): Promise<{ fh: FileHandle; stats: Stats }> {
    let fh: FileHandle;
    try {
      fh = await open(file, flags | NO_FOLLOW, 0o666);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw notFound(shown);
      if (code === "ELOOP") throw refused(shown, "path is a symbolic link, which the relay does not follow");
      if (code === "ENXIO") throw refused(shown, "not a regular file (a FIFO or socket)");
      if (code === "EISDIR") throw refused(shown, "not a regular file (a directory)");
      throw new ServiceError({ code: -32603, message: `cannot open ${shown}: ${code ?? (err as Error).message}` });
    }
    const stats = await fh.stat();
    if (!stats.isFile()) {
      await fh.close();
      throw refused(shown, `not a regular file (${kindOf(stats)})`);
    }
    return { fh, stats };
  }

  /**
   * Reads a regular file, honouring `line` (1-based) and `limit` (lines) as a
   * stream, so only the lines returned are held; refuses more than maxReadBytes.
   */
  private async readText(shown: string, file: string, line?: number, limit?: number): Promise<string> {
    const max = this.limits.maxReadBytes;
    const tooLarge = (what: string) =>
      new ServiceError({
        code: -32000,
        message: `${what} is larger than the ${max} bytes one read may return: ${shown} (ask for fewer lines with line/limit)`,
      });
    const { fh, stats } = await this.openRegular(file, constants.O_RDONLY, shown);
    try {
      const whole = line === undefined && limit === undefined;
      if (whole && stats.size > max) throw tooLarge(`the file (${stats.size} bytes)`);
      const first = Math.max(0, (line ?? 1) - 1);
      const end = limit === undefined ? Infinity : first + limit;
      // Lines as text.split("\n") sees them: the text after the last newline is a line too.
      const kept: string[] = [];
      let keptBytes = 0;
      let index = 0;
      let current = "";
      const keep = (piece: string) => {
        keptBytes += Buffer.byteLength(piece) + 1;
        if (keptBytes > max + 1) throw tooLarge("the text asked for");
      };
      const decoder = new TextDecoder();
      const buf = Buffer.allocUnsafe(64 * 1024);
      for (;;) {
        const { bytesRead } = await fh.read(buf, 0, buf.length, null);
        const text = bytesRead === 0 ? decoder.decode() : decoder.decode(buf.subarray(0, bytesRead), { stream: true });
        let from = 0;
        for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", from)) {
          if (index >= first && index < end) {
            const piece = text.slice(from, nl);
            keep(piece);
            kept.push(current + piece);
          }
          current = "";
          from = nl + 1;
          index++;
          if (index >= end) return kept.join("\n");
        }
        if (index >= first && index < end) {
          const rest = text.slice(from);
          keep(rest);
          current += rest;
        }
        if (bytesRead === 0) break;
      }
      if (index >= first && index < end) kept.push(current);
      return kept.join("\n");
    } finally {
      await fh.close();
    }
  }

  private async writeText(shown: string, file: string, content: string): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    const { fh } = await this.openRegular(file, constants.O_WRONLY | constants.O_CREAT, shown);
    try {
      await fh.truncate(0);
      await fh.writeFile(content);
    } finally {
      await fh.close();
    }
  }

  /** Serves one agent request; its params are checked against the SDK schema first. */
  async handle(method: string, raw: unknown): Promise<unknown> {
    const bad = agentRequestError(method, raw);
    if (bad) throw new ServiceError(bad);
    switch (method) {
      case CLIENT_METHODS.fs_read_text_file: {
        const { path: shown, line, limit } = raw as ReadTextFileRequest;
        const file = await this.confine(shown, false);
        return { content: await this.readText(shown, file, line ?? undefined, limit ?? undefined) };
      }
      case CLIENT_METHODS.fs_write_text_file: {
        const { path: shown, content } = raw as WriteTextFileRequest;
        await this.writeText(shown, await this.confine(shown, true), content);
        return {};
      }
      case CLIENT_METHODS.terminal_create:
        return this.createTerminal(raw as CreateTerminalRequest);
      case CLIENT_METHODS.terminal_output: {
        const t = this.terminal(raw as TerminalOutputRequest);
        const kept = truncateOutput(t.output, t.limit);
        return { output: kept.output, truncated: t.truncated || kept.truncated, exitStatus: t.exit ?? null };
      }
      case CLIENT_METHODS.terminal_wait_for_exit: {
        const t = this.terminal(raw as TerminalOutputRequest);
        await t.exited;
        return { ...t.exit };
      }
      case CLIENT_METHODS.terminal_kill: {
        const t = this.terminal(raw as TerminalOutputRequest);
        await this.kill(t);
        return {};
      }
      case CLIENT_METHODS.terminal_release: {
        const { terminalId } = raw as TerminalOutputRequest;
        const t = this.terminal({ terminalId });
        await this.kill(t);
        this.terminals.delete(terminalId);
        return {};
      }
      default:
        throw new ServiceError({ code: -32601, message: `Method not found: ${method}` });
    }
  }

  private terminal({ terminalId }: Pick<TerminalOutputRequest, "terminalId">): Terminal {
    const t = this.terminals.get(terminalId);
    if (!t) throw notFound(`terminal ${terminalId}`);
    return t;
  }

  private async createTerminal(params: CreateTerminalRequest): Promise<{ terminalId: string }> {
    const { command, args } = params;
    const env = Object.fromEntries((params.env ?? []).map((e) => [e.name, e.value]));
    const cwd = params.cwd ? await this.confineDir(params.cwd) : await this.notDataDir(this.workspace, this.workspace);
    // The agent may ask to keep less than the relay's cap, never more.
    const limit = Math.min(params.outputByteLimit ?? Infinity, this.limits.terminalOutputBytes);
    const spawned = childEnv(env);
    const child = execa(command, args ?? [], {
      cwd,
      env: spawned.env,
      extendEnv: false,
      detached: true,
      stdin: "ignore",
      buffer: false,
      reject: false,
      cleanup: false,
      all: true,
    });
    const terminal: Terminal = {
      child,
      tree: { pgid: child.pid ?? 0, marker: spawned.marker },
      output: "",
      truncated: false,
      limit,
      exited: Promise.resolve(),
    };
    terminal.exited = new Promise((resolve) => {
      child.once("error", (err: NodeJS.ErrnoException) => {
        terminal.output += `${err.code === "ENOENT" ? `command not found: ${command}` : err.message}\n`;
        terminal.exit ??= { exitCode: 127, signal: null };
        resolve();
      });
      child.once("close", (code: number | null, signal: NodeJS.Signals | null) => {
        terminal.exit ??= { exitCode: code, signal };
        resolve();
      });
    });
    child.catch(() => {});
    const decoder = new TextDecoder();
    child.all?.on("data", (chunk: Buffer) => {
      terminal.output += decoder.decode(chunk, { stream: true });
      // Cut in batches (a string's length never exceeds its UTF-8 bytes), so a flood costs O(1) per byte.
      if (terminal.output.length > limit * 2 + 65_536) {
        terminal.output = truncateOutput(terminal.output, limit).output;
        terminal.truncated = true;
      }
    });
    const terminalId = randomUUID();
    this.terminals.set(terminalId, terminal);
    return { terminalId };
  }

  /** Stops the terminal's whole tree, even once its leader has exited (a background child lives on). */
  private async kill(t: Terminal): Promise<void> {
    if (t.child.pid === undefined) return;
    await stopTree(t.tree, this.limits.killGraceMs).catch(() => {});
    await t.exited;
  }

  /** Kills every terminal (the agent is gone). */
  async dispose(): Promise<void> {
    await Promise.allSettled([...this.terminals.values()].map((t) => this.kill(t)));
    this.terminals.clear();
  }
}
