/**
 * The client side of ACP that the relay can carry out for an agent: text files
 * and terminals, confined to the agent's workspace. Errors are JSON-RPC error
 * bodies, never null results (Gemini breaks on null).
 */
import { execa, type ResultPromise } from "execa";
import { randomUUID } from "node:crypto";
import { mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { sliceLines, truncateOutput, type JsonRpcErrorBody } from "../lib/policy";
import { stopGroup } from "./process-group";
import { isInside } from "./workspace";

export class ServiceError extends Error {
  constructor(readonly body: JsonRpcErrorBody) {
    super(body.message);
  }
}

const invalidParams = (message: string) => new ServiceError({ code: -32602, message: `Invalid params: ${message}` });
const notFound = (uri: string) =>
  new ServiceError({ code: -32002, message: `Resource not found: ${uri}`, data: { uri } });
const outside = (p: string) => new ServiceError({ code: -32000, message: `path is outside the workspace: ${p}` });

type Params = Record<string, unknown>;

const str = (params: Params, key: string): string => {
  const v = params[key];
  if (typeof v !== "string" || v === "") throw invalidParams(`${key} must be a non-empty string`);
  return v;
};
const optInt = (params: Params, key: string): number | undefined => {
  const v = params[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0)
    throw invalidParams(`${key} must be a non-negative integer`);
  return v;
};

interface Terminal {
  child: ResultPromise;
  output: string;
  exit?: { exitCode: number | null; signal: string | null };
  exited: Promise<void>;
  limit?: number;
}

export class ClientServices {
  private readonly terminals = new Map<string, Terminal>();

  /** `workspace` is the agent's working directory (a real path). */
  constructor(
    private readonly workspace: string,
    private readonly killGraceMs = 2_000,
  ) {}

  /** Resolves a path the agent names; symlinks followed, must stay in the workspace. */
  private async confine(p: string, forWrite: boolean): Promise<string> {
    if (!path.isAbsolute(p)) throw invalidParams(`path must be absolute: ${p}`);
    const wanted = path.resolve(p);
    if (!isInside(this.workspace, wanted)) throw outside(p);
    try {
      const real = await realpath(wanted);
      if (!isInside(this.workspace, real)) throw outside(p);
      return real;
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      if (!forWrite) throw notFound(p);
    }
    // A new file: its nearest existing ancestor must be inside the workspace.
    let dir = path.dirname(wanted);
    for (;;) {
      try {
        const real = await realpath(dir);
        if (!isInside(this.workspace, real)) throw outside(p);
        return path.join(real, path.relative(dir, wanted));
      } catch (err) {
        if (err instanceof ServiceError) throw err;
        dir = path.dirname(dir);
      }
    }
  }

  async handle(method: string, params: Params = {}): Promise<unknown> {
    switch (method) {
      case "fs/read_text_file": {
        const file = await this.confine(str(params, "path"), false);
        let text: string;
        try {
          text = await readFile(file, "utf8");
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === "ENOENT") throw notFound(str(params, "path"));
          throw new ServiceError({
            code: -32603,
            message: `cannot read ${str(params, "path")}: ${code ?? (err as Error).message}`,
          });
        }
        return { content: sliceLines(text, optInt(params, "line"), optInt(params, "limit")) };
      }
      case "fs/write_text_file": {
        const content = params.content;
        if (typeof content !== "string") throw invalidParams("content must be a string");
        const file = await this.confine(str(params, "path"), true);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, content);
        return {};
      }
      case "terminal/create":
        return this.createTerminal(params);
      case "terminal/output": {
        const t = this.terminal(params);
        return { ...truncateOutput(t.output, t.limit), exitStatus: t.exit ?? null };
      }
      case "terminal/wait_for_exit": {
        const t = this.terminal(params);
        await t.exited;
        return { ...t.exit };
      }
      case "terminal/kill": {
        const t = this.terminal(params);
        await this.kill(t);
        return {};
      }
      case "terminal/release": {
        const id = str(params, "terminalId");
        const t = this.terminal(params);
        await this.kill(t);
        this.terminals.delete(id);
        return {};
      }
      default:
        throw new ServiceError({ code: -32601, message: `Method not found: ${method}` });
    }
  }

  private terminal(params: Params): Terminal {
    const t = this.terminals.get(str(params, "terminalId"));
    if (!t) throw notFound(`terminal ${str(params, "terminalId")}`);
    return t;
  }

  private async createTerminal(params: Params): Promise<{ terminalId: string }> {
    const command = str(params, "command");
    const args = params.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string"))
      throw invalidParams("args must be an array of strings");
    const envList = params.env ?? [];
    if (!Array.isArray(envList)) throw invalidParams("env must be an array of {name, value}");
    const env: Record<string, string> = {};
    for (const e of envList as Array<{ name?: unknown; value?: unknown }>) {
      if (typeof e?.name !== "string" || typeof e.value !== "string")
        throw invalidParams("env entries are {name, value} strings");
      env[e.name] = e.value;
    }
    const cwd =
      typeof params.cwd === "string" && params.cwd !== "" ? await this.confine(params.cwd, false) : this.workspace;
    const limit = optInt(params, "outputByteLimit");
    const child = execa(command, args as string[], {
      cwd,
      env,
      extendEnv: true,
      detached: true,
      stdin: "ignore",
      buffer: false,
      reject: false,
      cleanup: false,
      all: true,
    });
    const terminal: Terminal = { child, output: "", limit, exited: Promise.resolve() };
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
      // Bound memory: keep a little more than the agent asked for.
      if (limit !== undefined && terminal.output.length > limit * 4 + 65_536)
        terminal.output = truncateOutput(terminal.output, limit * 2).output;
    });
    const terminalId = randomUUID();
    this.terminals.set(terminalId, terminal);
    return { terminalId };
  }

  private async kill(t: Terminal): Promise<void> {
    if (t.exit || t.child.pid === undefined) return;
    await stopGroup(t.child.pid, this.killGraceMs).catch(() => {});
    await t.exited;
  }

  /** Kills every terminal (the agent is gone). */
  async dispose(): Promise<void> {
    await Promise.allSettled([...this.terminals.values()].map((t) => this.kill(t)));
    this.terminals.clear();
  }
}
