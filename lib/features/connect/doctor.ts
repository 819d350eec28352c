/**
 * The doctor: why an agent did not reach a session, in words, with what to do.
 * Pure: it reads facts someone observed (the start's failure, the exit, the
 * stderr tail, the frames both ways, the agent's environment names), never the
 * agent itself. The Profiles page's "Check" (server/agents/doctor-check.ts) and
 * a failed Connect in the playground give it the same facts, so both say the
 * same thing.
 */
import type { Frame } from "../../protocol/frame";
import { isObject } from "../../protocol/json";
import { outcomeOf, type RpcError } from "../../protocol/jsonrpc";
import { AGENT_METHODS } from "../../protocol/methods";
import { seconds } from "../../protocol/request-port";
import { staticChecks } from "../../folds/static-checks";
import { agentErrorText, needsAuth } from "./handshake";
import { type AuthMethodView, describeAuthMethods, missingEnvVars, parseAuthMethods } from "./auth-methods";

/** How the start failed before the agent ran (the relay's spawn error `data`). */
export type StartFailure =
  | { reason: "not-found"; command: string; searched: string[] }
  | { reason: "not-executable"; command: string }
  | { reason: "other"; message: string };

export interface DoctorFacts {
  /** The command as the profile names it (for the words). */
  command: string;
  start?: StartFailure;
  /** The agent exited (code, or the signal that ended it). */
  exit?: { code: number | null; signal: string | null };
  /** The end of what the agent wrote on stderr. */
  stderr?: string;
  /** Every frame both ways, parsed, in seq order. */
  frames: readonly Frame[];
  /** When the facts were taken (ms since the epoch): how long a request has waited. */
  now: number;
  /** Names of the variables the agent was started with (never values); absent when unknown (the browser). */
  envNames?: readonly string[];
  /** Protocol versions this client speaks. */
  supportedVersions?: readonly number[];
}

export type FindingKind =
  | "not-found"
  | "not-executable"
  | "start-failed"
  | "exited"
  | "stdout-noise"
  | "echo"
  | "no-initialize-answer"
  | "initialize-error"
  | "protocol-version"
  | "auth-required"
  | "missing-env"
  | "no-session-answer"
  | "session-new-failed";

export interface Finding {
  kind: FindingKind;
  /** `error`: it stops a session; `warning`: a session opens, but editors may break on it. */
  severity: "error" | "warning";
  /** What went wrong, one line. */
  title: string;
  /** What was seen: the PATH searched, the exit code, the first bytes... */
  detail?: string;
  /** What to do about it. */
  fix: string;
  /** Auth methods to offer (auth-required). */
  authMethods?: AuthMethodView[];
}

export interface Diagnosis {
  /** How far the agent got. */
  reached: "nothing" | "started" | "initialized" | "session";
  findings: Finding[];
}

/** Lines of stderr shown under a finding, and characters at most. */
const STDERR_LINES = 12;
const STDERR_CHARS = 1_500;
/** Characters of a stray stdout line shown. */
const EXCERPT_CHARS = 80;

/** The end of stderr: the last lines, at most STDERR_CHARS. */
export function stderrTail(text: string | undefined): string {
  if (!text) return "";
  const lines = text.replace(/\s+$/, "").split("\n");
  const tail = lines.slice(-STDERR_LINES).join("\n");
  return tail.length > STDERR_CHARS ? `…${tail.slice(-STDERR_CHARS)}` : tail;
}

/** A line's first characters with control characters made visible (`\x1b`, `\t`), quoted. */
export function visibleBytes(raw: string, max = EXCERPT_CHARS): string {
  const head = [...raw].slice(0, max).join("");
  const shown = head.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
  return `"${shown}"${head.length < raw.length ? "…" : ""}`;
}

function exitWords(exit: NonNullable<DoctorFacts["exit"]>): string {
  return exit.signal ? `was ended by ${exit.signal}` : `exited with code ${exit.code ?? "?"}`;
}

/** The agent's error as the handshake tells it, shorter. */
const errorText = (e: RpcError) => agentErrorText(e, 500);

/** The client's last request of `method` and the agent's answer to it, if any. */
function exchange(frames: readonly Frame[], method: string): { request?: Frame; response?: Frame } {
  let request: Frame | undefined;
  for (const f of frames) if (f.dir === "to-agent" && f.kind === "request" && f.method === method) request = f;
  if (!request) return {};
  const response = frames.find((f) => f.dir === "from-agent" && f.kind === "response" && f.requestSeq === request.seq);
  return { request, response };
}

/** Whether an error is about the protocol version (the agent does not speak the one asked for). */
function isVersionError(e: RpcError): boolean {
  return /protocol.?version|unsupported version|version mismatch/i.test(`${e.message} ${JSON.stringify(e.data ?? "")}`);
}

const NOISE_FIX =
  "Only JSON-RPC lines may go to stdout: print banners and logs to stderr. A shell profile's greeting " +
  "(~/.bashrc, ~/.zshrc) runs when the agent is started through a shell: print it only in interactive shells " +
  "(`[[ $- == *i* ]] && echo ...`), or give the profile the agent's own executable. Colour codes: set NO_COLOR=1 " +
  "in the profile's env.";

/** The finding for stray stdout: its first line, whether a frame came before it, how many more. */
function noiseOf(first: Frame, before: boolean, more: number): Finding {
  return {
    kind: "stdout-noise",
    severity: "error",
    title: `It writes something that is not JSON-RPC on stdout ${before ? "before its first frame" : "between frames"}`,
    detail: `first bytes: ${visibleBytes(first.raw)}${first.error ? ` (${first.error})` : ""}${
      more > 0 ? ` (and ${more} more such line${more > 1 ? "s" : ""})` : ""
    }`,
    fix: NOISE_FIX,
  };
}

/** Stray stdout: a line the agent wrote that is not JSON-RPC, before its first frame or between frames. */
function noiseFinding(frames: readonly Frame[]): Finding | undefined {
  const fromAgent = frames.filter((f) => f.dir === "from-agent");
  const stray = fromAgent.filter((f) => f.kind === "invalid");
  const first = stray[0];
  if (!first) return undefined;
  return noiseOf(first, !fromAgent.some((f) => f.kind !== "invalid" && f.seq < first.seq), stray.length - 1);
}

const ECHO_FIX =
  "The profile's command copies what it reads to what it writes (cat, tee, a shell, a pipe): it is not an ACP " +
  "agent. Give the profile the agent's own command, with the argument that makes it speak ACP (gemini --acp, " +
  "claude-agent-acp, codex app-server...). The doctor stopped it.";

/**
 * The client's requests and notifications an echo would send back, by line and (requests) by
 * method and id. Only a message only a client sends counts as echoed: a response, or a
 * notification both sides send, may be the same line from an agent that works.
 */
class Sent {
  readonly lines = new Map<string, Frame>();
  readonly requests = new Map<string, Frame>();
  add(f: Frame): void {
    if (f.method === undefined || this.lines.size >= SENT_KEPT) return;
    if (!this.lines.has(f.raw)) this.lines.set(f.raw, f);
    if (f.kind === "request") this.requests.set(`${f.method} ${JSON.stringify(f.id)}`, f);
  }
  /** The client's frame this frame from the agent repeats: the same line, or the same request reformatted (jq). */
  echoed(f: Frame): Frame | undefined {
    if (f.method === undefined || (f.kind !== "request" && f.kind !== "notification")) return undefined;
    if (!staticChecks(f).some((c) => c.code === "wrong-direction")) return undefined;
    return (
      this.lines.get(f.raw) ??
      (f.kind === "request" ? this.requests.get(`${f.method} ${JSON.stringify(f.id)}`) : undefined)
    );
  }
}
/** The client's frames remembered for echoes: the handshake's are the first few. */
const SENT_KEPT = 64;

function echoOf(ours: Frame, back: Frame): Finding {
  const what = ours.method ? `${ours.method} ${ours.kind}` : ours.kind;
  return {
    kind: "echo",
    severity: "error",
    title: "It sends our own messages back: it echoes its input",
    detail: `the client's ${what} (frame #${ours.seq}) came back from the agent as frame #${back.seq}`,
    fix: ECHO_FIX,
  };
}

/** An agent that echoes its input: the first of the client's frames it sent back. */
function echoFinding(frames: readonly Frame[]): Finding | undefined {
  const sent = new Sent();
  for (const f of frames) {
    if (f.dir === "to-agent") sent.add(f);
    else {
      const ours = sent.echoed(f);
      if (ours) return echoOf(ours, f);
    }
  }
  return undefined;
}

/**
 * What the doctor can say while the agent is still being connected: only what the frames so
 * far make certain (stray stdout, an echo), never what waiting longer could change (no answer yet).
 */
export function earlyFindings(frames: readonly Frame[]): Finding[] {
  return [noiseFinding(frames), echoFinding(frames)].filter((f): f is Finding => f !== undefined);
}

/** The findings after which the agent is stopped: nothing it does next can open a session. */
export const STOPS_THE_AGENT: ReadonlySet<FindingKind> = new Set(["echo"]);

/**
 * The doctor watching an agent's frames as they come (server/agents/agent-host.ts): each
 * early finding once, the moment its frame arrives. O(1) a frame; its memory is bounded.
 */
export class DoctorWatch {
  readonly #sent = new Sent();
  #framed = false;
  #noise: Frame | undefined;
  #noiseBefore = false;
  #more = 0;
  #echo = false;

  /** A finding this frame makes certain, the first time it does. */
  push(f: Frame): Finding | undefined {
    if (f.dir === "to-agent") {
      this.#sent.add(f);
      return undefined;
    }
    if (f.kind === "invalid") {
      if (this.#noise) {
        this.#more++;
        return undefined;
      }
      this.#noise = f;
      this.#noiseBefore = !this.#framed;
      return noiseOf(f, this.#noiseBefore, 0);
    }
    this.#framed = true;
    if (this.#echo) return undefined;
    const ours = this.#sent.echoed(f);
    if (!ours) return undefined;
    this.#echo = true;
    return echoOf(ours, f);
  }
}

function startFinding(facts: DoctorFacts, start: StartFailure): Finding {
  if (start.reason === "not-found")
    return {
      kind: "not-found",
      severity: "error",
      title: `The command is not found: ${start.command}`,
      detail: start.command.includes("/")
        ? `no executable file at ${start.command}`
        : start.searched.length
          ? `PATH searched: ${start.searched.join(":")}`
          : "PATH is empty",
      fix:
        "Install the agent, or give the profile the command's absolute path (run `which " +
        `${start.command}\` in your own shell). An editor or a service may start the server with a shorter PATH ` +
        "than your shell's.",
    };
  if (start.reason === "not-executable")
    return {
      kind: "not-executable",
      severity: "error",
      title: `The command cannot be run: ${start.command}`,
      detail: "permission denied",
      fix: `Make it executable (chmod +x ${start.command}), or name its interpreter as the command (node, python3).`,
    };
  return {
    kind: "start-failed",
    severity: "error",
    title: `${facts.command} did not start`,
    detail: start.message,
    fix: "Check the profile's command and arguments in the config file.",
  };
}

function exitFinding(facts: DoctorFacts, exit: NonNullable<DoctorFacts["exit"]>, during: string): Finding {
  const tail = stderrTail(facts.stderr);
  return {
    kind: "exited",
    severity: "error",
    title: `It ${exitWords(exit)} ${during}`,
    detail: tail ? `stderr ends with:\n${tail}` : "it wrote nothing on stderr",
    fix:
      "Read its stderr: a missing argument (agents often need --acp or acp to speak ACP), a missing login, " +
      "or a Node version it does not support are the usual reasons. Run the profile's command in a terminal to see.",
  };
}

/**
 * Why the agent did not reach a session (or what would break an editor if it did):
 * findings in the order they happened, the first the one to fix first.
 */
export function diagnose(facts: DoctorFacts): Diagnosis {
  if (facts.start) return { reached: "nothing", findings: [startFinding(facts, facts.start)] };
  const supported = facts.supportedVersions ?? [1, 2];
  const findings: Finding[] = [];
  const noise = noiseFinding(facts.frames);
  if (noise) findings.push(noise);
  // An echo answers our own requests with our own frames: nothing after it is the agent's (its exit is the doctor's stop).
  const echo = echoFinding(facts.frames);
  if (echo) return { reached: "started", findings: [...findings, echo] };

  const init = exchange(facts.frames, AGENT_METHODS.initialize);
  if (!init.request) {
    if (facts.exit) findings.push(exitFinding(facts, facts.exit, "before it was sent initialize"));
    return { reached: "started", findings };
  }
  if (!init.response) {
    if (facts.exit) findings.push(exitFinding(facts, facts.exit, "without answering initialize"));
    else
      findings.push({
        kind: "no-initialize-answer",
        severity: "error",
        title: `No answer to initialize after ${seconds(facts.now - init.request.ts)}`,
        detail: stderrTail(facts.stderr) ? `stderr ends with:\n${stderrTail(facts.stderr)}` : "nothing on stderr",
        fix:
          "It may not be speaking ACP: many agents need a flag for it (--acp, --experimental-acp, acp). It may be " +
          "waiting for a login on a terminal, or still starting (a first run that installs something): see stderr.",
      });
    return { reached: "started", findings };
  }
  const initOutcome = outcomeOf(init.response);
  const asked =
    isObject(init.request.message) && isObject(init.request.message.params)
      ? init.request.message.params.protocolVersion
      : undefined;
  if (initOutcome.kind !== "result") {
    const e = initOutcome.kind === "error" ? initOutcome.error : { code: -32603, message: "no answer" };
    findings.push(
      isVersionError(e)
        ? {
            kind: "protocol-version",
            severity: "error",
            title: `It refused the protocol version asked for (${String(asked)})`,
            detail: errorText(e),
            fix: `This client speaks protocol version ${supported.join(" and ")}: update the agent (or the playground).`,
          }
        : {
            kind: "initialize-error",
            severity: "error",
            title: "It answered initialize with an error",
            detail: errorText(e),
            fix: "Read the error and its stderr; run the profile's command in a terminal to see more.",
          },
    );
    return { reached: "started", findings };
  }
  const result = isObject(initOutcome.result) ? initOutcome.result : {};
  const version = result.protocolVersion;
  const askedVersion = typeof asked === "number" ? asked : undefined;
  if (
    typeof version !== "number" ||
    !supported.includes(version) ||
    (askedVersion !== undefined && version > askedVersion)
  ) {
    findings.push({
      kind: "protocol-version",
      severity: "error",
      title: `It speaks a protocol version this client does not: ${JSON.stringify(version) ?? "none"}`,
      detail: `asked for ${String(asked)}; it answered protocolVersion ${JSON.stringify(version) ?? "(missing)"}`,
      fix: `This client speaks protocol version ${supported.join(" and ")}; an agent must answer one at or below the version asked for. Update the agent, or use a release that speaks v1.`,
    });
    return { reached: "initialized", findings };
  }
  const methods = parseAuthMethods(result);

  const session = exchange(facts.frames, AGENT_METHODS.session_new);
  if (!session.request) {
    if (facts.exit) findings.push(exitFinding(facts, facts.exit, "after initialize"));
    return { reached: "initialized", findings };
  }
  if (!session.response) {
    if (facts.exit) findings.push(exitFinding(facts, facts.exit, "without answering session/new"));
    else
      findings.push({
        kind: "no-session-answer",
        severity: "error",
        title: `No answer to session/new after ${seconds(facts.now - session.request.ts)}`,
        detail: stderrTail(facts.stderr) ? `stderr ends with:\n${stderrTail(facts.stderr)}` : "nothing on stderr",
        fix: "It may be waiting for a login or a model API it cannot reach: see stderr.",
      });
    return { reached: "initialized", findings };
  }
  const sessionOutcome = outcomeOf(session.response);
  if (sessionOutcome.kind === "result") {
    if (facts.exit) findings.push(exitFinding(facts, facts.exit, "after opening a session"));
    // Stray stdout after a session opened still breaks an editor: kept as a warning.
    return { reached: "session", findings: findings.map((f) => ({ ...f, severity: "warning" as const })) };
  }
  const e = sessionOutcome.kind === "error" ? sessionOutcome.error : { code: -32603, message: "no answer" };
  if (!needsAuth(e)) {
    findings.push({
      kind: "session-new-failed",
      severity: "error",
      title: "It answered session/new with an error",
      detail: errorText(e),
      fix: "Read the error and its stderr.",
    });
    return { reached: "initialized", findings };
  }
  findings.push({
    kind: "auth-required",
    severity: "error",
    title: "session/new needs authentication",
    detail: `${errorText(e)}${methods.length ? `\nthe agent offers: ${describeAuthMethods(methods)}` : "\nthe agent listed no auth method"}`,
    fix: methods.length
      ? "Connect in the playground offers these methods: choose one (an env_var method's values can be typed there)."
      : "It lists no auth method: log in with the agent's own command in a terminal, then try again.",
    authMethods: methods,
  });
  if (facts.envNames) {
    for (const m of methods) {
      const missing = missingEnvVars(m, facts.envNames);
      if (!missing.length) continue;
      const names = missing.map((v) => v.name).join(", ");
      findings.push({
        kind: "missing-env",
        severity: "error",
        title: `It names ${names} (auth method "${m.name}"), which its environment lacks`,
        detail: `not set in the server's environment nor in the profile's env: ${names}`,
        fix: `Set ${names} in the environment the playground is started from, or in the profile's "env" in the config file, or type ${missing.length > 1 ? "them" : "it"} in Connect.`,
      });
    }
  }
  return { reached: "initialized", findings };
}

/** A finding as lines of text (the CLI's stderr): what went wrong, what was seen, what to do. */
export function findingText(f: Finding): string {
  const detail = f.detail ? `\n  ${f.detail.replace(/\n/g, "\n  ")}` : "";
  return `${f.title}${detail}\n  What to do: ${f.fix}`;
}

/** What a profile's "Check" answers (POST /api/profiles/:name/check). */
export interface DoctorReport {
  profile: string;
  command: string;
  args: string[];
  checkedAt: string;
  durationMs: number;
  diagnosis: Diagnosis;
}
