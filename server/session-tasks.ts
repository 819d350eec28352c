/**
 * Things done with a fresh agent from start to stop, on a browser session (or
 * the CLI's): re-running a transcript against it, probing it.
 */
import { runProbe, type ProbeReport } from "../lib/probe";
import { Rerun } from "../lib/rerun";
import type { Transcript } from "../lib/transcript";
import { diffRuns } from "../lib/transcript-diff";
import type { Ack, RerunResult, StartPayload } from "../lib/wire";
import { AgentDriver } from "./agent-driver";
import type { BrowserSession } from "./browser-session";

/** Starts a fresh agent and sends it a transcript's client side again; answers with the diff. */
export async function rerunTranscript(
  session: BrowserSession,
  recorded: Transcript,
  payload: StartPayload,
  /** Recorded mcpServers are sent only when the user confirmed them (never from the CLI). */
  options: { recordedMcpServers?: boolean } = {},
): Promise<Ack<RerunResult>> {
  const started = await session.start(payload);
  if (!started.ok) return started;
  const rerun = new Rerun(recorded.frames, (message) => void session.send(JSON.stringify(message)), {
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
      { frames: session.framesWithMessages(), cwd: started.agent.cwd },
    );
    return {
      ok: true,
      agent: started.agent,
      steps,
      problems: rerun.problems,
      diff: { equal: diff.equal, added: diff.added, removed: diff.removed, patch: diff.patch },
    };
  } finally {
    unsubscribe();
    session.answerer.suspended = false;
    await session.stop();
  }
}

/** Starts a fresh agent of a profile and runs the conformance probe against it. */
export async function probeAgent(
  session: BrowserSession,
  payload: StartPayload,
  options: { includeLogout?: boolean } = {},
): Promise<Ack<{ report: ProbeReport }>> {
  const startedAt = Date.now();
  const started = await session.start(payload);
  if (!started.ok) return started;
  const driver = new AgentDriver(session);
  try {
    const rows = await runProbe(driver, { cwd: started.agent.cwd, includeLogout: options.includeLogout });
    const init = session
      .framesWithMessages()
      .find(
        (f) =>
          f.kind === "response" &&
          f.method === "initialize" &&
          (f.message as { result?: { agentInfo?: unknown } }).result?.agentInfo,
      );
    const agentInfo = (init?.message as { result: { agentInfo: { name?: string; version?: string } } } | undefined)
      ?.result.agentInfo;
    return {
      ok: true,
      report: {
        profile: started.agent.profile,
        agent: agentInfo && { name: agentInfo.name, version: agentInfo.version },
        startedAt: new Date(startedAt).toISOString(),
        durationMs: Date.now() - startedAt,
        rows,
        transcriptId: started.agent.transcriptId,
      },
    };
  } finally {
    driver.close();
    await session.stop();
  }
}
