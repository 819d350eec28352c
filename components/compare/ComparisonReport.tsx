"use client";
/**
 * One comparison (lib/features/compare/compare.ts) per turn: the answers side by side, the tool
 * calls aligned by name and arguments, the files each side changed with their
 * diffs, timing and token usage. Agent text is shown as text, never markup.
 */
import type { Comparison, SideTurn, ToolPair, TurnComparison } from "@/lib/features/compare/compare";
import { formatMs } from "@/lib/folds/waterfall";
import { DiffView } from "../transcripts/DiffView";

const figure = (s: SideTurn | undefined, f: (s: SideTurn) => string | undefined) => (s ? (f(s) ?? "–") : "—");

function Figures({ turn }: { turn: TurnComparison }) {
  const rows: Array<[string, (s: SideTurn) => string | undefined]> = [
    ["stop reason", (s) => s.error ?? (s.stopReason === undefined ? undefined : String(s.stopReason))],
    ["total", (s) => s.timing && formatMs(s.timing.totalMs)],
    [
      "first output",
      (s) => (s.timing?.timeToFirstChunkMs !== undefined ? formatMs(s.timing.timeToFirstChunkMs) : undefined),
    ],
    ["agent time", (s) => s.timing && formatMs(s.timing.agentMs)],
    ["waiting for the user", (s) => s.timing && formatMs(s.timing.userWaitMs)],
    ["tokens", (s) => s.usage?.totalTokens?.toString()],
    ["tool calls", (s) => String(s.tools.length)],
    ["files changed", (s) => String(s.files.length)],
  ];
  return (
    <table data-testid="compare-figures" className="w-full text-xs">
      <tbody>
        {rows.map(([name, f]) => (
          <tr key={name} className="border-t border-zinc-800/60">
            <th className="w-40 py-0.5 pr-2 text-left font-normal text-zinc-500">{name}</th>
            <td data-side="a" className="py-0.5 font-mono text-zinc-300">
              {figure(turn.a, f)}
            </td>
            <td data-side="b" className="py-0.5 font-mono text-zinc-300">
              {figure(turn.b, f)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const args = (t: ToolPair["a"]) => (t ? JSON.stringify(t.args) : "");
const MATCH = (p: ToolPair) => (p.similarity === 1 ? "same" : p.similarity > 0 ? "similar" : "one side");

function Tools({ pairs }: { pairs: ToolPair[] }) {
  if (pairs.length === 0) return <p className="text-xs text-zinc-500">No tool calls.</p>;
  return (
    <table className="w-full table-fixed text-xs">
      <tbody>
        {pairs.map((p, i) => (
          <tr
            key={i}
            data-testid="compare-tool-row"
            data-match={MATCH(p)}
            className="border-t border-zinc-800/60 align-top"
          >
            {[p.a, p.b].map((t, side) => (
              <td key={side} data-side={side ? "b" : "a"} className="py-1 pr-2">
                {t ? (
                  <>
                    <span className="font-mono text-zinc-200">{t.name}</span>{" "}
                    <span className="text-zinc-500">{t.status ?? ""}</span>
                    <div className="truncate font-mono text-[11px] text-zinc-500" title={args(t)}>
                      {args(t)}
                    </div>
                  </>
                ) : (
                  <span className="text-zinc-600">—</span>
                )}
              </td>
            ))}
            <td className="w-20 py-1 text-right text-zinc-500">{MATCH(p)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Turn({ turn, labels }: { turn: TurnComparison; labels: [string, string] }) {
  return (
    <section data-testid="compare-turn" className="space-y-3 border-b border-zinc-800 p-3">
      <h3 className="text-sm text-zinc-200">
        Turn {turn.index + 1}: <span className="text-zinc-400">{turn.prompt.slice(0, 200)}</span>{" "}
        <span data-testid="compare-answers-equal" className="text-xs text-zinc-500">
          {turn.answersEqual ? "same answer" : "answers differ"}
        </span>
      </h3>
      {/* The conversations above already show each answer: its plain text only when asked for. */}
      <details data-testid="compare-answers" className="text-xs">
        <summary className="cursor-pointer text-zinc-400 hover:text-zinc-200">Answers as plain text</summary>
        <div className="mt-2 grid grid-cols-2 gap-3">
          {[turn.a, turn.b].map((s, i) => (
            <div key={i} className="min-w-0">
              <div className="mb-1 text-zinc-400">{labels[i]}</div>
              <pre
                data-testid={`compare-answer-${i ? "b" : "a"}`}
                className="max-h-60 overflow-auto whitespace-pre-wrap rounded border border-zinc-800 bg-zinc-950 p-2 text-zinc-200"
              >
                {s ? s.answer || "(no message)" : "(no turn)"}
              </pre>
            </div>
          ))}
        </div>
      </details>
      <Figures turn={turn} />
      <div>
        <h4 className="mb-1 text-xs font-semibold text-zinc-400">Tool calls</h4>
        <Tools pairs={turn.tools} />
      </div>
      {turn.files.length ? (
        <div>
          <h4 className="mb-1 text-xs font-semibold text-zinc-400">Files changed</h4>
          {turn.files.map((f) => (
            <div key={f.path} data-testid="compare-file" className="mb-2">
              <div className="font-mono text-xs text-zinc-300">
                {f.path} {f.same ? <span className="text-zinc-500">(same result)</span> : null}
              </div>
              <div className="grid grid-cols-2 gap-3">
                {[f.a, f.b].map((x, i) =>
                  x ? (
                    <DiffView key={i} patch={x.patch} />
                  ) : (
                    <p key={i} className="text-xs text-zinc-600">
                      unchanged
                    </p>
                  ),
                )}
              </div>
            </div>
          ))}
        </div>
      ) : null}
    </section>
  );
}

export function ComparisonReport({ comparison }: { comparison: Comparison }) {
  return (
    <div data-testid="comparison-report" data-differences={comparison.differences}>
      {comparison.turns.length === 0 ? (
        <p className="p-3 text-xs text-zinc-500">No turn yet.</p>
      ) : (
        comparison.turns.map((t) => <Turn key={t.index} turn={t} labels={comparison.labels} />)
      )}
    </div>
  );
}
