"use client";
/**
 * The doctor on the Profiles page: "Check" starts a profile's agent in a
 * throw-away folder, sends initialize and session/new, and says what stops it
 * from reaching a session and what to do (POST /api/profiles/:name/check).
 */
import { useState } from "react";
import type { DoctorReport } from "@/lib/features/connect/doctor";
import { DiagnosisView } from "../doctor/DiagnosisView";
import { authHeaders, errorOf } from "../transcripts/api";
import { formatDuration } from "../transcripts/format";

type CheckState = { running: true } | { report: DoctorReport } | { error: string };

const button = "rounded border border-zinc-700 px-2 py-0.5 text-xs text-zinc-200 hover:bg-zinc-800 disabled:opacity-40";

async function checkProfile(token: string, name: string): Promise<DoctorReport> {
  const res = await fetch(`/api/profiles/${encodeURIComponent(name)}/check`, {
    method: "POST",
    cache: "no-store",
    headers: { ...authHeaders(token), "content-type": "application/json" },
    body: "{}",
  });
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as DoctorReport;
}

export function ProfileChecks({ token, profiles }: { token: string; profiles: string[] }) {
  const [checks, setChecks] = useState<Record<string, CheckState>>({});
  const busy = Object.values(checks).some((c) => "running" in c);

  const run = async (name: string) => {
    setChecks((c) => ({ ...c, [name]: { running: true } }));
    let state: CheckState;
    try {
      state = { report: await checkProfile(token, name) };
    } catch (err) {
      state = { error: (err as Error).message };
    }
    setChecks((c) => ({ ...c, [name]: state }));
  };
  /** One agent at a time: a check starts a real agent. */
  const runAll = async () => {
    for (const name of profiles) await run(name);
  };

  return (
    <section className="flex flex-col gap-2" aria-label="Check profiles" data-testid="profile-checks">
      <div className="flex items-baseline gap-3">
        <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Check</h2>
        <span className="text-xs text-zinc-400">
          Starts the agent in a throw-away folder, sends initialize and session/new, and says what stops it.
        </span>
        <button
          type="button"
          data-testid="check-all"
          className={button}
          disabled={busy || profiles.length === 0}
          onClick={() => void runAll()}
        >
          Check all
        </button>
      </div>
      <ul className="flex flex-col gap-2">
        {profiles.map((name) => {
          const state = checks[name];
          return (
            <li key={name} data-testid="profile-check" data-name={name} className="flex flex-col gap-1">
              <div className="flex items-center gap-2">
                <button
                  type="button"
                  data-testid="check-profile"
                  className={button}
                  disabled={busy}
                  onClick={() => void run(name)}
                >
                  Check
                </button>
                <span className="font-mono text-xs text-zinc-200">{name}</span>
                {state && "running" in state ? (
                  <span role="status" className="text-xs text-zinc-400">
                    checking…
                  </span>
                ) : null}
                {state && "report" in state ? (
                  <span className="text-[11px] text-zinc-400">{formatDuration(state.report.durationMs)}</span>
                ) : null}
              </div>
              {state && "report" in state ? <DiagnosisView diagnosis={state.report.diagnosis} /> : null}
              {state && "error" in state ? (
                <p role="alert" className="text-xs text-red-300">
                  Check failed: {state.error}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
