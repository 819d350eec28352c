"use client";
/** Raw input/output of a tool call as a JSON tree, built only once opened. */
import { useState } from "react";
import { darkStyles, JsonView } from "react-json-view-lite";

const expand = (level: number) => level < 2;

export function RawDisclosure({ label, value }: { label: string; value: unknown }) {
  const [open, setOpen] = useState(false);
  const tree = typeof value === "object" && value !== null;
  return (
    <details
      className="text-[11px]"
      onToggle={(e) => setOpen(e.currentTarget.open)}
      onClick={(e) => e.stopPropagation()}
    >
      <summary data-testid="raw-toggle" className="cursor-pointer select-none text-zinc-500 hover:text-zinc-300">
        {label}
      </summary>
      {open ? (
        <div
          data-testid="raw-json"
          className="mt-1 max-h-72 overflow-auto rounded border border-zinc-800 bg-zinc-950 p-1.5 font-mono"
        >
          {tree ? (
            <JsonView
              data={value}
              style={{ ...darkStyles, container: `${darkStyles.container} json-tree` }}
              shouldExpandNode={expand}
            />
          ) : (
            <pre className="whitespace-pre-wrap break-all text-zinc-300">{JSON.stringify(value)}</pre>
          )}
        </div>
      ) : null}
    </details>
  );
}
