"use client";
/** The tool call a permission request is about: title, kind, locations, content (text, diffs, terminals). */
import { createContext, useContext } from "react";
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

/**
 * True where the tool call's own card stands right above (the Session view, whose fold merges a permission
 * request into its tool call's card): the request then points to that card's content (diffs, text)
 * instead of repeating it. False in the prompt dock, where the request card stands alone.
 */
export const ToolCallCardAbove = createContext(false);

export function ToolCallView({ toolCall }: { toolCall: ToolCall }) {
  const above = useContext(ToolCallCardAbove) && toolCall.toolCallId !== undefined;
  const diffs = toolCall.content.filter((c) => isObject(c) && c.type === "diff").length;
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
      {above && toolCall.content.length ? (
        <p data-testid="tool-content-above" className="text-[11px] text-zinc-400">
          tool call <code className="text-zinc-300">{toolCall.toolCallId}</code>:{" "}
          {diffs ? `its diff${diffs > 1 ? "s" : ""}` : "its content"} in the tool call card above ↑
        </p>
      ) : (
        toolCall.content.map((c, i) => <ContentItem key={i} item={c} />)
      )}
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
