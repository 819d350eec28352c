"use client";
/** The tool call a permission request is about: title, kind, locations, content (text, diffs, terminals). */
import type { ToolCallView as ToolCall } from "@/lib/features/answers/agent-answers";
import { DiffView } from "../session-view/DiffView";
import { isObject } from "@/lib/protocol/json";

function ContentItem({ item }: { item: unknown }) {
  if (!isObject(item)) return <pre className="font-mono text-[11px] text-zinc-400">{JSON.stringify(item)}</pre>;
  if (item.type === "diff" && typeof item.path === "string" && typeof item.newText === "string") {
    return <DiffView path={item.path} oldText={item.oldText as string | null | undefined} newText={item.newText} />;
  }
  if (item.type === "terminal")
    return <p className="font-mono text-[11px] text-zinc-400">terminal {String(item.terminalId)}</p>;
  const block = item.type === "content" && isObject(item.content) ? item.content : undefined;
  if (block?.type === "text" && typeof block.text === "string") {
    return (
      <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-950 p-1 text-[11px] text-zinc-300">
        {block.text}
      </pre>
    );
  }
  return (
    <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-all font-mono text-[11px] text-zinc-400">
      {JSON.stringify(item, null, 2)}
    </pre>
  );
}

export function ToolCallView({ toolCall }: { toolCall: ToolCall }) {
  return (
    <div className="flex flex-col gap-1" data-testid="answer-tool-call">
      <p className="text-xs text-zinc-200">
        {toolCall.title ?? "(untitled tool call)"}
        {toolCall.kind ? (
          <span className="ml-2 rounded bg-zinc-800 px-1 text-[10px] text-zinc-400">{toolCall.kind}</span>
        ) : null}
        {toolCall.status ? <span className="ml-1 text-[10px] text-zinc-500">{toolCall.status}</span> : null}
      </p>
      {toolCall.locations.length ? (
        <ul className="flex flex-col">
          {toolCall.locations.map((l, i) => (
            <li key={i} className="truncate font-mono text-[11px] text-zinc-400" title={l.path}>
              {l.path}
              {l.line !== undefined ? `:${l.line}` : ""}
            </li>
          ))}
        </ul>
      ) : null}
      {toolCall.content.map((c, i) => (
        <ContentItem key={i} item={c} />
      ))}
      {toolCall.rawInput !== undefined ? (
        <details className="text-[11px] text-zinc-500">
          <summary className="cursor-pointer">rawInput</summary>
          <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-all font-mono">
            {JSON.stringify(toolCall.rawInput, null, 2)}
          </pre>
        </details>
      ) : null}
    </div>
  );
}
