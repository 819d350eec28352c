"use client";
/** A file change as Codex reports it: a unified diff for an update, the content for an added file. */
import { DiffView } from "../session-view/DiffView";
import type { FileChange } from "@/lib/folds/codex-app-server/view";

const LINE_STYLE = (line: string) =>
  line.startsWith("@@")
    ? "text-sky-300/80"
    : line.startsWith("+")
      ? "bg-emerald-500/10 text-emerald-200"
      : line.startsWith("-")
        ? "bg-red-500/10 text-red-200"
        : "text-zinc-400";

export function FileChangeView({ change }: { change: FileChange }) {
  // An added file's "diff" is its content: the ACP diff view shows it as a new file.
  if (change.kind === "add") return <DiffView path={change.path} oldText={null} newText={change.diff} />;
  return (
    <div data-testid="file-change" data-path={change.path} className="overflow-hidden rounded border border-zinc-800">
      <div className="flex items-center gap-2 border-b border-zinc-800 bg-zinc-900 px-2 py-1 font-mono text-[11px]">
        <span className="truncate text-zinc-300" title={change.path}>
          {change.path}
        </span>
        {change.movePath ? <span className="text-zinc-500">→ {change.movePath}</span> : null}
        <span className={change.kind === "delete" ? "text-red-300" : "text-zinc-500"}>{change.kind}</span>
      </div>
      <pre className="max-h-72 overflow-auto bg-zinc-950 py-0.5 font-mono text-[11px] leading-snug">
        {change.diff.split("\n").map((line, i) => (
          <div key={i} className={`whitespace-pre-wrap break-all px-2 ${LINE_STYLE(line)}`}>
            {line || " "}
          </div>
        ))}
      </pre>
    </div>
  );
}
