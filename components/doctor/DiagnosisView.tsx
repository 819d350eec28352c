"use client";
/** The doctor's findings (lib/features/connect/doctor.ts): what went wrong, what was seen, what to do. */
import type { Diagnosis } from "@/lib/features/connect/doctor";

const REACHED: Record<Diagnosis["reached"], string> = {
  nothing: "did not start",
  started: "started, never initialized",
  initialized: "initialized, no session",
  session: "opened a session",
};

/** `live`: findings while the agent is still being connected: how far it got is not known yet. */
export function DiagnosisView({ diagnosis, live = false }: { diagnosis: Diagnosis; live?: boolean }) {
  if (diagnosis.findings.length === 0)
    return (
      <p data-testid="doctor-ok" className="text-xs text-emerald-300">
        No problem found: it answered initialize and opened a session.
      </p>
    );
  return (
    <div data-testid="doctor-findings" data-reached={diagnosis.reached} className="flex flex-col gap-1.5">
      {live ? null : <p className="text-[11px] text-zinc-500">The agent {REACHED[diagnosis.reached]}.</p>}
      {diagnosis.findings.map((f, i) => (
        <div
          key={`${f.kind}-${i}`}
          data-testid="doctor-finding"
          data-kind={f.kind}
          className={`flex flex-col gap-1 rounded px-2 py-1.5 text-xs ${f.severity === "error" ? "bg-red-950/60 text-red-200" : "bg-amber-950/50 text-amber-200"}`}
        >
          <p className="font-medium">{f.title}</p>
          {f.detail ? (
            <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-words font-mono text-[11px] text-zinc-300">
              {f.detail}
            </pre>
          ) : null}
          <p className="text-zinc-200">
            <span className="font-semibold">What to do: </span>
            {f.fix}
          </p>
        </div>
      ))}
    </div>
  );
}
