"use client";
/** What a re-run did: each step's outcome and latency, problems, and the diff against the recording. */
import type { RerunResult } from "@/lib/contracts/wire";
import { formatLatency } from "../format";
import { RerunDiff } from "./RerunDiff";

const OUTCOME: Record<string, string> = {
  answered: "text-emerald-300",
  error: "text-red-300",
  timeout: "text-amber-300",
  sent: "text-zinc-400",
};

export function RerunResultView({ result }: { result: RerunResult }) {
  const { agent, steps, problems, diff } = result;
  return (
    <div data-testid="rerun-result" className="flex flex-col gap-2">
      <p className="text-zinc-400">
        Ran against <code className="text-zinc-200">{agent.profile}</code> (pid {agent.pid}
        {agent.transcriptId ? (
          <>
            , recorded as <code className="text-zinc-300">{agent.transcriptId}</code>
          </>
        ) : null}
        ).
      </p>
      {diff.equal ? (
        <p data-testid="rerun-equal" className="font-medium text-emerald-300">
          No difference: the agent behaved as recorded.
        </p>
      ) : (
        <p data-testid="rerun-different" className="font-medium text-amber-300">
          The agent behaved differently: {diff.removed} recorded entr{diff.removed === 1 ? "y" : "ies"} missing,{" "}
          {diff.added} new.
        </p>
      )}
      <table data-testid="rerun-steps" className="w-full max-w-3xl border-collapse font-mono text-[11px]">
        <thead className="text-left text-[10px] uppercase tracking-wider text-zinc-400">
          <tr>
            <th className="py-0.5 pr-3 font-medium">#</th>
            <th className="py-0.5 pr-3 font-medium">method</th>
            <th className="py-0.5 pr-3 font-medium">outcome</th>
            <th className="py-0.5 pr-3 text-right font-medium">latency</th>
            <th className="py-0.5 font-medium">id recorded → live</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((s, i) => (
            <tr key={i} data-testid="rerun-step" data-outcome={s.outcome} className="border-t border-zinc-800/60">
              <td className="py-0.5 pr-3 text-zinc-400">{i + 1}</td>
              <td className="py-0.5 pr-3 text-zinc-100">{s.method}</td>
              <td className={`py-0.5 pr-3 ${OUTCOME[s.outcome] ?? "text-zinc-300"}`}>{s.outcome}</td>
              <td className="py-0.5 pr-3 text-right text-zinc-400 tabular-nums">{formatLatency(s.latencyMs)}</td>
              <td className="py-0.5 text-zinc-400">
                {JSON.stringify(s.recordedId ?? null)} → {JSON.stringify(s.liveId ?? null)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {problems.length ? (
        <ul data-testid="rerun-problems" className="list-inside list-disc text-amber-300">
          {problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      ) : null}
      {diff.equal ? null : <RerunDiff changes={diff.changes} patch={diff.patch} />}
    </div>
  );
}
