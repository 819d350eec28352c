"use client";
/**
 * Why Connect failed, in the doctor's words: the same diagnosis as the Profiles
 * page's "Check", from what this tab saw of the agent (its start error, frames,
 * stderr and exit). `live`, while Connect is under way: only what the frames so far make
 * certain (a line that is not JSON-RPC, an echo), the moment it arrives. `fallback`: the
 * failure's own message, shown when the doctor has nothing to say (never both: one text a failure).
 */
import { useMemo, type ReactNode } from "react";
import { diagnose, earlyFindings, type Diagnosis, type DoctorFacts } from "@/lib/features/connect/doctor";
import { useSession } from "../state/use-session";
import { DiagnosisView } from "./DiagnosisView";

export function ConnectDiagnosis({ live = false, fallback }: { live?: boolean; fallback?: ReactNode }) {
  const agent = useSession((s) => s.agent);
  const agentError = useSession((s) => s.agentError);
  const frames = useSession((s) => s.frames);
  const stderr = useSession((s) => s.stderr);
  const diagnosis = useMemo((): Diagnosis => {
    if (live) return { reached: "started", findings: earlyFindings([...frames]) };
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
  }, [live, agent, agentError, frames, stderr]);
  if (diagnosis.findings.length === 0) return fallback ?? null;
  return (
    <div data-testid="connect-diagnosis" data-live={live} className="flex flex-col gap-1">
      <p className="text-[11px] font-semibold uppercase tracking-wider text-zinc-400">{live ? "Seen so far" : "Why"}</p>
      <DiagnosisView diagnosis={diagnosis} live={live} />
    </div>
  );
}
