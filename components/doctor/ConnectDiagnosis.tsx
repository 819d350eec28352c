"use client";
/**
 * Why Connect failed, in the doctor's words: the same diagnosis as the Profiles
 * page's "Check", from what this tab saw of the agent (its start error, frames,
 * stderr and exit).
 */
import { useMemo } from "react";
import { diagnose, type DoctorFacts } from "@/lib/features/doctor";
import { useSession } from "../state/use-session";
import { DiagnosisView } from "./DiagnosisView";

export function ConnectDiagnosis() {
  const agent = useSession((s) => s.agent);
  const agentError = useSession((s) => s.agentError);
  const frames = useSession((s) => s.frames);
  const stderr = useSession((s) => s.stderr);
  const diagnosis = useMemo(() => {
    const start = agentError?.code === "spawn_failed" ? agentError : undefined;
    const facts: DoctorFacts = {
      command:
        agent.state === "running" || agent.state === "exited" ? (agent.agent?.command ?? "the agent") : "the agent",
      frames: [...frames],
      stderr: stderr.map((e) => e.text).join(""),
      now: Date.now(),
      ...(start ? { start: start.data?.start ?? { reason: "other", message: start.message } } : {}),
      ...(agent.state === "exited" && (agent.code !== null || agent.signal !== null)
        ? { exit: { code: agent.code, signal: agent.signal } }
        : {}),
    };
    return diagnose(facts);
  }, [agent, agentError, frames, stderr]);
  if (diagnosis.findings.length === 0) return null;
  return (
    <div data-testid="connect-diagnosis" className="flex flex-col gap-1">
      <p className="text-[11px] font-semibold uppercase tracking-wider text-zinc-400">Why</p>
      <DiagnosisView diagnosis={diagnosis} />
    </div>
  );
}
