"use client";
/** Agent profiles: whether each command resolves here, where, and what version it reports. */
import { CredentialsNote } from "./CredentialsNote";
import type { ProfileDetails } from "@/lib/contracts/wire";
import type { ProbeReport } from "@/lib/contracts/reports";
import { probeSummary, summaryCounts } from "@/lib/features/probe/summary";
import { STATE_COLOUR } from "./ProbeReportView";

interface Props {
  profiles: ProfileDetails[];
  /** The profile being probed, if any: one probe at a time. */
  probing?: string;
  onProbe: (profile: string) => void;
  /** Profiles picked for the protocol matrix. */
  selected: ReadonlySet<string>;
  onSelect: (profile: string, on: boolean) => void;
  /** Each profile's latest probe from this page: its result shows beside its Probe button. */
  results?: ReadonlyMap<string, ProbeReport>;
}

/** A probe's outcome where it was asked for; the whole report is below the table. */
function ProbeResult({ report }: { report: ProbeReport }) {
  const summary = probeSummary(report);
  if (!summary) return null;
  return (
    <a
      href="#probe-report"
      data-testid="probe-result"
      data-state={summary.state}
      title={summary.advice ?? "The probe's report, below"}
      className="mt-1 block text-right text-[11px] hover:underline"
    >
      <span className={`font-semibold ${STATE_COLOUR[summary.state]}`}>{summary.label}</span>
      <span className="block text-zinc-400">{summaryCounts(summary)}</span>
    </a>
  );
}

const th = "px-3 py-1.5 text-left font-medium";

export function ProfileTable({ profiles, probing, onProbe, selected, onSelect, results }: Props) {
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-800">
      <table data-testid="profile-table" className="w-full border-collapse text-xs">
        <thead className="border-b border-zinc-800 bg-zinc-900/70 text-[10px] uppercase tracking-wider text-zinc-400">
          <tr>
            <th className={th}>
              <span className="sr-only">Pick for the matrix</span>
            </th>
            <th className={th}>Profile</th>
            <th className={th}>Command</th>
            <th className={th}>Available</th>
            <th className={th}>Version</th>
            <th className={th}>Options</th>
            <th className={th} />
          </tr>
        </thead>
        <tbody>
          {profiles.map((p) => (
            <tr
              key={p.name}
              data-testid="profile-row"
              data-name={p.name}
              data-available={p.available}
              className="border-b border-zinc-800/70 align-top"
            >
              <td className="px-3 py-2">
                <input
                  type="checkbox"
                  data-testid="profile-select"
                  aria-label={`Pick ${p.name} for the protocol matrix`}
                  disabled={!p.available}
                  checked={selected.has(p.name)}
                  onChange={(e) => onSelect(p.name, e.target.checked)}
                />
              </td>
              <td className="px-3 py-2">
                <div className="font-mono text-zinc-100">{p.name}</div>
                {p.description ? <div className="text-[11px] text-zinc-400">{p.description}</div> : null}
                <CredentialsNote profile={p} />
              </td>
              <td className="max-w-[28rem] px-3 py-2">
                <code className="break-all text-zinc-300">{[p.command, ...p.args].join(" ")}</code>
                {/* Where a bare name resolves; an absolute command would only say itself again. */}
                {p.resolved && p.resolved !== p.command ? (
                  <div data-testid="profile-resolved" className="break-all text-[11px] text-zinc-400">
                    → <code>{p.resolved}</code>
                  </div>
                ) : null}
              </td>
              <td data-testid="profile-available" className="px-3 py-2">
                {p.available && p.credentialsMissing ? (
                  <span className="text-amber-300" title={p.credentialsMissing}>
                    installed, no credentials
                  </span>
                ) : p.available ? (
                  // Colour is never the only signal (docs/design.md): a word beside the mark.
                  <span className="text-emerald-300">✓ installed</span>
                ) : (
                  <span className="text-red-300">
                    missing: <code>{p.command}</code> not found on this machine
                  </span>
                )}
              </td>
              <td data-testid="profile-version" className="px-3 py-2 text-zinc-200">
                {p.version ?? <span className="text-zinc-400">—</span>}
              </td>
              <td className="px-3 py-2 font-mono text-[11px] text-zinc-400">
                {p.options.length ? p.options.join(", ") : "—"}
              </td>
              <td className="px-3 py-1.5 text-right">
                {p.available ? (
                  <button
                    type="button"
                    data-testid="probe-button"
                    disabled={probing !== undefined}
                    onClick={() => onProbe(p.name)}
                    title="Start a fresh agent and run the conformance probe against it"
                    className="rounded border border-zinc-700 px-2 py-0.5 text-zinc-200 hover:bg-zinc-800 disabled:bg-zinc-800 disabled:text-zinc-500"
                  >
                    {probing === p.name ? "Probing…" : "Probe"}
                  </button>
                ) : null}
                {results?.get(p.name) ? <ProbeResult report={results.get(p.name)!} /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ReplayProfileList({ profiles }: { profiles: ProfileDetails[] }) {
  if (profiles.length === 0)
    return <p className="text-xs text-zinc-400">No replay profiles: every transcript with frames becomes one.</p>;
  return (
    <ul
      data-testid="replay-profiles"
      className="flex flex-col divide-y divide-zinc-800/70 rounded-lg border border-zinc-800 text-xs"
    >
      {profiles.map((p) => (
        <li
          key={p.name}
          data-testid="replay-profile"
          data-name={p.name}
          className="flex items-baseline gap-3 px-3 py-1.5"
        >
          <code className="text-zinc-200">{p.name}</code>
          <span className="truncate text-zinc-400">{p.description}</span>
          <span className="ml-auto text-zinc-400">options: {p.options.join(", ") || "—"}</span>
        </li>
      ))}
    </ul>
  );
}
