/**
 * The Profiles page's "Check": starts a profile's agent in a throw-away
 * folder, sends `initialize` and `session/new` as Connect would, watches what
 * it does (exit, stderr, stray stdout, answers) and hands those facts to the
 * doctor (lib/features/connect/doctor.ts). It asks through the one request port
 * (lib/protocol/request-port.ts) with the client handshake's params
 * (lib/features/connect/handshake.ts), over its own connection and sequencer: nothing
 * is recorded. The agent is stopped whatever happens; its requests are refused
 * (a check opens a session, nothing more).
 */
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { diagnose, type DoctorFacts, type DoctorReport } from "../../lib/features/connect/doctor";
import type { Frame } from "../../lib/protocol/frame";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import { initializeParams, sessionNewParams, within } from "../../lib/features/connect/handshake";
import { errorFrame, type RpcOutcome } from "../../lib/protocol/jsonrpc";
import { RequestClient } from "../../lib/protocol/request-port";
import { AGENT_METHODS } from "../../lib/protocol/methods";
import { fail, ok, type Result } from "../../lib/protocol/result";
import type { RelayError } from "../../lib/contracts/wire";
import type { ServerConfig } from "../config";
import { SpawnError } from "./agent-process";
import type { AgentConnection } from "./agent-connection";
import { childEnv } from "../process-group";
import { removedOnExit } from "../removed-on-exit";
import { removeScratch, type Profiles } from "./profiles";
import { startAgent } from "./remote-agent";

/** How long each step may take by default: an agent on a loaded machine starts slowly. */
export const DOCTOR_TIMEOUT_MS = 20_000;
/** Stderr kept for the tail (the start of a long stderr is never shown). */
const STDERR_KEPT = 64 * 1024;
/** Frames kept: a check needs the first few, not an agent's flood. */
const FRAMES_KEPT = 1_000;

export async function checkProfile(
  profiles: Profiles,
  config: Pick<ServerConfig, "maxLineBytes" | "killGraceMs">,
  name: string,
  timeoutMs = DOCTOR_TIMEOUT_MS,
): Promise<Result<DoctorReport, RelayError>> {
  const checkedAt = new Date().toISOString();
  const started = Date.now();
  const resolved = await profiles.resolve(name);
  const report = (facts: Omit<DoctorFacts, "now">, command: string, args: string[]): DoctorReport => ({
    profile: name,
    command,
    args,
    checkedAt,
    durationMs: Date.now() - started,
    diagnosis: diagnose({ ...facts, now: Date.now() }),
  });
  if (!resolved.ok) {
    if (resolved.error.code !== "spawn_failed") return fail(resolved.error);
    // A registry profile whose package is not installed: the profile says why.
    const p = profiles.list().find((x) => x.name === name);
    return ok(
      report(
        { command: p?.command ?? name, frames: [], start: { reason: "other", message: resolved.error.message } },
        p?.command ?? name,
        p?.args ?? [],
      ),
    );
  }
  const launch = resolved.value;
  const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-doctor-")));
  // Removed also when the relay is stopped mid-check (its shutdown exits without waiting for checks).
  const removeWorkspace = removedOnExit(workspace);
  const sequencer = new FrameSequencer();
  const frames: Frame[] = [];
  let stderr = "";
  let exit: DoctorFacts["exit"];
  let agent: AgentConnection | undefined;
  let reportExit = () => {};
  const exited = new Promise<void>((resolve) => (reportExit = resolve));
  let nextId = 0;
  /** Writes one frame and keeps it; its seq, or why it was not written. */
  const write = (frame: string | object): Result<number> => {
    const line = typeof frame === "string" ? frame : JSON.stringify(frame);
    if (!agent?.running || !agent.write(line)) return fail("the agent is not running");
    const sent = sequencer.line("to-agent", line);
    keep(sent);
    return ok(sent.seq);
  };
  /** The one request port over this connection: answers are paired by the sequencer's requestSeq. */
  const client = new RequestClient({ send: write, nextId: () => nextId++ });
  const keep = (frame: Frame) => {
    if (frames.length < FRAMES_KEPT) frames.push(frame);
    client.received([frame]);
    // A check answers no request: refused at once, so an agent never waits on it.
    if (frame.dir === "from-agent" && frame.kind === "request" && frame.id !== undefined)
      write(errorFrame(frame.id, { code: -32601, message: "the doctor's check answers no requests" }));
  };
  const addStderr = (text: string) => {
    stderr = (stderr + text).slice(-STDERR_KEPT);
  };
  try {
    try {
      agent = await startAgent(
        { ...launch, cwd: workspace, maxLineBytes: config.maxLineBytes, killGraceMs: config.killGraceMs },
        {
          onLine: (e) => keep(sequencer.lineEvent("from-agent", e, config.maxLineBytes)),
          onStderr: addStderr,
          onTransport: (text) => addStderr(`[transport] ${text}\n`),
          onExit: (code, signal) => {
            exit = { code, signal };
            client.close("the agent exited");
            reportExit();
          },
        },
      );
    } catch (err) {
      if (!(err instanceof SpawnError)) throw err;
      const start = err.relayError.data?.start;
      return ok(
        report(
          {
            command: launch.command,
            frames: [],
            start: start ?? { reason: "other", message: err.relayError.message },
          },
          launch.command,
          launch.args,
        ),
      );
    }

    /** A request and its answer, the agent's exit or the timeout; one that could not be written waits for the exit. */
    const ask = async (method: string, params: unknown): Promise<RpcOutcome> => {
      const outcome = await client.request(method, params, { timeoutMs });
      if (outcome.kind === "failed" && outcome.reason === "unsent") await within(exited, timeoutMs);
      return outcome;
    };
    const init = await ask(
      AGENT_METHODS.initialize,
      initializeParams({ clientCapabilities: profiles.clientCapabilities(name) }),
    );
    const initialized = diagnose({ command: launch.command, frames, now: Date.now() }).reached === "initialized";
    if (init.kind === "result" && initialized) await ask(AGENT_METHODS.session_new, sessionNewParams(workspace));
    // The facts as they stood when the check ended, before it stops the agent.
    const facts = {
      command: launch.command,
      frames: [...frames],
      stderr,
      exit,
      envNames: Object.keys(childEnv(launch.env).env),
    };
    return ok(report(facts, launch.command, launch.args));
  } finally {
    await agent?.stop().catch(() => {});
    removeScratch(launch);
    removeWorkspace();
  }
}
