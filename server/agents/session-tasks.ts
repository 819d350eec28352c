/**
 * Things done with a fresh agent from start to stop, on an agent host (a browser
 * session's or the CLI's): re-running a transcript against it, probing it.
 */
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PROBE_DIRECTORIES } from "../../lib/features/probe/probe";
import { runProbe } from "../../lib/features/protocols/registry";
import { type ProbeReport } from "../../lib/contracts/reports";
import { createRedactor } from "../../lib/features/library/redact";
import type { Defs } from "../../lib/features/compose/schema-form";
import { Rerun } from "../../lib/features/library/rerun";
import type { Transcript } from "../../lib/contracts/transcript";
import { diffRuns } from "../../lib/features/compare/transcript-diff";
import type { Ack, RerunResult, StartPayload } from "../../lib/contracts/wire";
import { AgentDriver } from "./agent-driver";
import { schemaSet, sdkSchemaFile } from "./client-services";
import type { AgentHost } from "./agent-host";
import { groupRssBytes } from "../process-group";
import { removedOnExit } from "../removed-on-exit";
import type { ProbeStore } from "../transcripts/probe-store";
import { AGENT_METHODS } from "../../lib/protocol/methods";
import { fail, ok } from "../../lib/protocol/result";
import { checkMessageDirectories, keepDirectoriesInside } from "../workspace";
import { protocolOf } from "../../lib/protocol/protocols";

/** Starts a fresh agent and sends it a transcript's client side again; answers with the diff. */
export async function rerunTranscript(
  session: AgentHost,
  recorded: Transcript,
  { ignore, ...payload }: StartPayload & { ignore?: string[] },
  /** Recorded mcpServers are sent only when the user confirmed them (never from the CLI). */
  /** `workspaceRoots`: where a recorded session's directories may lie (default: the live agent's cwd). */
  options: { recordedMcpServers?: boolean; workspaceRoots?: string[] } = {},
): Promise<Ack<RerunResult>> {
  const started = await session.start(payload, undefined, "rerun");
  if (!started.ok) return started;
  // The working-directory rule holds for a recording's directories too (server/workspace.ts).
  const roots = options.workspaceRoots ?? [started.agent.cwd];
  const dropped: string[] = [];
  const send = (message: object) => {
    const kept = keepDirectoriesInside(message, roots, dropped);
    // What is left (a recorded command/exec's cwd, an fs/readFile path...) is refused, not sent.
    const refused = checkMessageDirectories(kept, roots);
    if (refused) return fail(refused.message);
    const ack = session.send(JSON.stringify(kept));
    return ack.ok ? ok(ack.seq) : fail(ack.error.message);
  };
  const protocol = protocolOf(recorded.header.agent);
  const rerun = new Rerun(recorded.frames, send, {
    protocol,
    cwd: started.agent.cwd,
    recordedMcpServers: options.recordedMcpServers === true,
  });
  // The recording answers the agent's requests, not the policies.
  session.answerer.suspended = true;
  const unsubscribe = session.onFrame((frame) => rerun.receive(frame));
  try {
    const steps = await rerun.run();
    const diff = diffRuns(
      { frames: recorded.frames, cwd: recorded.header.agent.cwd },
      // Redacted as the recording was: a value redacted there can never match otherwise.
      { frames: session.framesAsRecorded(), cwd: started.agent.cwd },
      // The re-run stops at its last answer: the recording is cut there too.
      { window: "last-response", ignore, protocol },
    );
    return {
      ok: true,
      agent: started.agent,
      steps,
      problems: [...rerun.problems, ...dropped],
      diff: { equal: diff.equal, added: diff.added, removed: diff.removed, patch: diff.patch, changes: diff.changes },
    };
  } finally {
    unsubscribe();
    session.answerer.suspended = false;
    await session.stop();
  }
}

/**
 * Starts a fresh agent of a profile in a throw-away workspace and runs the conformance probe against it.
 * `terminals`: carry out its terminal requests there (never for a remote agent; lib/features/probe/probe probeTerminals).
 */
export async function probeAgent(
  session: AgentHost,
  payload: StartPayload,
  options: {
    includeLogout?: boolean;
    clientCapabilities?: Record<string, unknown>;
    store?: ProbeStore;
    terminals?: boolean;
    /** An advertised auth method to authenticate with before session/new. */
    authMethod?: string;
  } = {},
): Promise<Ack<{ report: ProbeReport }>> {
  const startedAt = Date.now();
  // The agent's files and terminals stay in here, never in the user's workspace.
  const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-probe-")));
  // Removed also when the process is interrupted (SIGINT, SIGTERM) mid-probe.
  const removeWorkspace = removedOnExit(workspace);
  // The probe names these (an extra root, a directory no session uses): they must exist.
  for (const name of Object.values(PROBE_DIRECTORIES)) mkdirSync(path.join(workspace, name));
  const started = await session.start({ ...payload, cwd: undefined }, workspace, "probe");
  if (!started.ok) {
    removeWorkspace();
    return started;
  }
  // Measured before the probe's last step closes the agent's stdin (it may exit then).
  let rssBytes: number | undefined;
  const driver = new AgentDriver(session, () => (rssBytes = groupRssBytes(started.agent.pid)));
  // The probe answers under its own policies: the session's own come back after it.
  const policies = session.answerer.current;
  try {
    const { rows, facts, conformance, agent } = await runProbe(driver, {
      cwd: started.agent.cwd,
      protocol: started.agent.protocol,
      includeLogout: options.includeLogout,
      clientCapabilities: options.clientCapabilities,
      terminals: options.terminals,
      authMethod: options.authMethod,
      remote: session.remote,
      defs: unstableDefs(),
      schemas: schemaSet(),
      // Used by a probe that starts a fresh agent per scenario (ACP v2's); in the same workspace.
      fresh: session.freshAgents({ ...payload, cwd: undefined }, started.agent.cwd),
    });
    rssBytes ??= groupRssBytes(started.agent.pid);
    const frames = session.framesWithMessages();
    const init = frames.find(
      (f) =>
        f.kind === "response" &&
        f.method === AGENT_METHODS.initialize &&
        (f.message as { result?: { agentInfo?: unknown } }).result?.agentInfo,
    );
    const firstAnswer = frames.find((f) => f.dir === "from-agent" && f.kind === "response");
    const agentInfo = (init?.message as { result: { agentInfo: { name?: string; version?: string } } } | undefined)
      ?.result.agentInfo;
    const report: ProbeReport = {
      profile: started.agent.profile,
      agent: agent ?? (agentInfo && { name: agentInfo.name, version: agentInfo.version }),
      startedAt: new Date(startedAt).toISOString(),
      durationMs: Date.now() - startedAt,
      rows,
      facts: { ...facts, startupMs: firstAnswer ? firstAnswer.ts - startedAt : undefined, rssBytes },
      conformance,
      transcriptId: started.agent.transcriptId,
    };
    // Redacted as its transcript is (what the agent said of its environment's secrets): a report is
    // kept, and on a team server copied to the database for everyone to read.
    const redacted = JSON.parse(createRedactor(session.secrets).frame(JSON.stringify(report)).text) as ProbeReport;
    return { ok: true, report: options.store ? options.store.save(redacted) : redacted };
  } finally {
    driver.close();
    await session.stop();
    session.answerer.setPolicies(policies);
    removeWorkspace();
  }
}

let defs: Defs | undefined;
/** The SDK's unstable schema: the probe builds each call's params from it. */
function unstableDefs(): Defs {
  defs ??= (sdkSchemaFile("unstable") as { $defs: Defs }).$defs;
  return defs;
}
