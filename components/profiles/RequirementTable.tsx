"use client";
/** One schema variant's requirements: status, id, tier, citation, and what each check saw (failures' frames linked). */
import type { RequirementResult, RequirementStatus } from "@/lib/contracts/requirements";
import { statusMark } from "@/lib/features/probe/export";

const TONE: Record<RequirementStatus, string> = {
  pass: "text-emerald-300",
  fail: "text-red-300",
  skipped: "text-zinc-400",
  "not tested": "text-amber-300",
  "not applicable": "text-zinc-500",
  "blocked by auth": "text-amber-300",
};

export function RequirementTable({
  requirements,
  transcriptId,
}: {
  requirements: readonly RequirementResult[];
  transcriptId?: string;
}) {
  const transcript = transcriptId ? `/transcripts/${encodeURIComponent(transcriptId)}` : undefined;
  return (
    <div className="mt-1 overflow-x-auto rounded-lg border border-zinc-800">
      <table className="w-full border-collapse text-[11px]">
        <thead className="border-b border-zinc-800 bg-zinc-900/70 text-left text-[10px] uppercase tracking-wider text-zinc-400">
          <tr>
            <th className="w-8 px-2 py-1 font-medium" />
            <th className="px-2 py-1 font-medium">id</th>
            <th className="px-2 py-1 font-medium">tier</th>
            <th className="px-2 py-1 font-medium">requirement</th>
            <th className="px-2 py-1 font-medium">citation</th>
            <th className="px-2 py-1 font-medium">seen</th>
          </tr>
        </thead>
        <tbody>
          {requirements.map((r) => (
            <tr
              key={r.id}
              data-testid="requirement-row"
              data-id={r.id}
              data-tier={r.tier}
              data-status={r.status}
              className="border-b border-zinc-800/60 align-top"
            >
              <td className={`px-2 py-0.5 ${TONE[r.status]}`} title={r.status}>
                {statusMark(r.status)}
              </td>
              <td className="whitespace-nowrap px-2 py-0.5 font-mono text-zinc-100">{r.id}</td>
              <td className="px-2 py-0.5 font-mono text-zinc-400">{r.tier}</td>
              <td className="px-2 py-0.5 text-zinc-200">
                {r.title}
                {r.note ? <span className="block text-zinc-500">{r.note}</span> : null}
              </td>
              <td className="break-all px-2 py-0.5 font-mono text-zinc-400">{r.citation}</td>
              <td className="px-2 py-0.5 text-zinc-400">
                <span className={TONE[r.status]}>{r.status}</span>
                {r.checks.map((c, i) => (
                  <span key={i} className="block">
                    {c.detail}
                    {c.frames?.length && transcript ? (
                      <span className="ml-1" title="frames (seq) in the transcript the probe recorded">
                        frames{" "}
                        {c.frames.map((n, j) => (
                          <a
                            key={n}
                            href={`${transcript}#seq=${n}`}
                            data-testid="requirement-frames"
                            className="text-sky-300 underline"
                          >
                            {j > 0 ? ", " : ""}#{n}
                          </a>
                        ))}
                      </span>
                    ) : null}
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
