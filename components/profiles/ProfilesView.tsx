"use client";
/** /profiles: every profile's availability and version, probes, their reports and comparisons. */
import { useCallback, useEffect, useState } from "react";
import type { ProfileDetails } from "@/lib/contracts/wire";
import { TokenMessage } from "../TokenMessage";
import { api, ApiError } from "../transcripts/api";
import type { ProbeReport } from "@/lib/contracts/reports";
import { ProbeCompare } from "./ProbeCompare";
import { ProbeMatrixView } from "./ProbeMatrixView";
import { ProbeReportView } from "./ProbeReportView";
import { ProfileTable, ReplayProfileList } from "./ProfileTable";
import { ProfileChecks } from "./ProfileChecks";
import { FoundAgents } from "./FoundAgents";
import { useProbeReports } from "./use-probe-reports";

const isReplay = (p: ProfileDetails) => p.name.startsWith("replay:");

export function ProfilesView({ token }: { token: string }) {
  const [profiles, setProfiles] = useState<ProfileDetails[]>();
  const [loadError, setLoadError] = useState<ApiError>();
  const { entries, running, error, uploadError, probe, upload } = useProbeReports(token);
  const [shown, setShown] = useState<string>();
  const [compare, setCompare] = useState<{ a?: string; b?: string }>({});
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [matrix, setMatrix] = useState<ProbeReport[]>();
  // Off by default: a probed agent's commands run on this machine only when the user says so.
  const [terminals, setTerminals] = useState(false);

  const loadProfiles = useCallback(
    () =>
      api(token)
        .profiles()
        .then(setProfiles)
        .catch((err: ApiError) => setLoadError(err)),
    [token],
  );
  useEffect(() => void loadProfiles(), [loadProfiles]);

  if (loadError?.status === 401) return <TokenMessage refused />;
  const report = entries.find((e) => e.key === shown) ?? entries.at(-1);
  // The latest report of each profile, shown in its row beside the button that asked for it.
  const results = new Map(entries.filter((e) => e.here).map((e) => [e.report.profile, e.report]));

  const onProbe = async (profile: string) => {
    const entry = await probe(profile, terminals);
    if (!entry) return undefined;
    setShown(entry.key);
    // The newest two runs are compared by default.
    setCompare((c) => (c.a && c.b ? c : c.a ? { a: c.a, b: entry.key } : { a: entry.key }));
    return entry;
  };

  /** Probes one profile after the other (one agent at a time) and shows them as one matrix. */
  const probeSeveral = async (names: string[]) => {
    const reports: ProbeReport[] = [];
    setMatrix(undefined);
    for (const name of names) {
      const entry = await onProbe(name);
      if (entry) reports.push(entry.report);
    }
    if (reports.length) setMatrix(reports);
  };
  const runnable = (profiles ?? []).filter((p) => !isReplay(p) && p.available).map((p) => p.name);

  return (
    <main className="min-h-0 flex-1 overflow-y-auto px-4 py-4">
      <div className="mx-auto flex max-w-7xl flex-col gap-5">
        <section className="flex flex-col gap-2">
          <div className="flex items-baseline gap-3">
            <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Agent profiles</h2>
            <span className="text-xs text-zinc-400">
              The browser names a profile; command lines come only from the server&apos;s config.
            </span>
          </div>
          {loadError ? <p className="text-xs text-red-300">Could not load profiles: {loadError.message}</p> : null}
          {profiles ? (
            <ProfileTable
              profiles={profiles.filter((p) => !isReplay(p))}
              probing={running?.profile}
              onProbe={(p) => void onProbe(p)}
              results={results}
              selected={selected}
              onSelect={(name, on) =>
                setSelected((set) => {
                  const next = new Set(set);
                  if (on) next.add(name);
                  else next.delete(name);
                  return next;
                })
              }
            />
          ) : (
            <p className="text-xs text-zinc-400">Checking commands and versions…</p>
          )}
          <div className="flex gap-2">
            <button
              type="button"
              data-testid="probe-selected"
              disabled={running !== undefined || selected.size === 0}
              onClick={() => void probeSeveral(runnable.filter((n) => selected.has(n)))}
              className="rounded border border-zinc-700 px-2 py-0.5 text-xs text-zinc-200 hover:bg-zinc-800 disabled:bg-zinc-800 disabled:text-zinc-500"
            >
              Probe selected ({selected.size})
            </button>
            <button
              type="button"
              data-testid="probe-all"
              disabled={running !== undefined || runnable.length === 0}
              onClick={() => void probeSeveral(runnable)}
              title="Probe every available profile, one after the other, into one protocol matrix"
              className="rounded border border-zinc-700 px-2 py-0.5 text-xs text-zinc-200 hover:bg-zinc-800 disabled:bg-zinc-800 disabled:text-zinc-500"
            >
              Probe all
            </button>
            <label
              className="flex items-center gap-1 text-xs text-zinc-300"
              title="Off: the probe does not advertise terminals and refuses the agent's commands. On: they run as you, in the probe's throw-away folder, and the report lists them. Never for URL profiles."
            >
              <input
                type="checkbox"
                data-testid="probe-terminals"
                checked={terminals}
                disabled={running !== undefined}
                onChange={(e) => setTerminals(e.target.checked)}
              />
              Run the agent&apos;s terminal commands
            </label>
          </div>
          {running ? (
            <p data-testid="probe-progress" role="status" className="text-xs text-zinc-300">
              Probing {running.profile}:{" "}
              {running.progress.agent ? `agent pid ${running.progress.agent.pid}, ` : "starting a fresh agent, "}
              {running.progress.frames} frames so far…
            </p>
          ) : null}
          {error ? (
            <p data-testid="probe-error" role="alert" className="text-xs text-red-300">
              Probe of {error.profile} failed ({error.error.code}): {error.error.message}
            </p>
          ) : null}
        </section>

        {matrix ? <ProbeMatrixView reports={matrix} /> : null}

        <FoundAgents token={token} onAdded={() => void loadProfiles()} />

        {profiles ? (
          <ProfileChecks token={token} profiles={profiles.filter((p) => !isReplay(p)).map((p) => p.name)} />
        ) : null}

        <section className="flex flex-col gap-2">
          <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Replay profiles</h2>
          {profiles ? <ReplayProfileList profiles={profiles.filter(isReplay)} /> : null}
        </section>

        <section className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Probe reports</h2>
            {entries.map((e) => (
              <button
                key={e.key}
                type="button"
                data-testid="report-tab"
                aria-pressed={e === report}
                onClick={() => setShown(e.key)}
                className={`rounded px-2 py-0.5 text-xs ${e === report ? "bg-sky-600/30 text-sky-200" : "text-zinc-400 hover:bg-zinc-800"}`}
              >
                {e.label}
              </button>
            ))}
          </div>
          {report ? (
            <ProbeReportView report={report.report} />
          ) : (
            <p className="text-xs text-zinc-400">No reports yet: probe a profile above.</p>
          )}
          <ProbeCompare
            entries={entries}
            a={compare.a}
            b={compare.b}
            onPick={(side, key) => setCompare((c) => ({ ...c, [side]: key || undefined }))}
            onUpload={async (file) => {
              const entry = await upload(file);
              if (entry) setCompare((c) => (c.a ? { a: c.a, b: entry.key } : { a: entry.key }));
            }}
            uploadError={uploadError}
          />
        </section>
      </div>
    </main>
  );
}
