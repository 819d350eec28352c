"use client";
/**
 * The agent's slash commands matching what is typed after "/": opened above the prompt box, no
 * taller than the room a short window leaves there.
 */
import type { SlashCommand } from "@/lib/folds/slash-commands";

export function SlashMenu({
  commands,
  active,
  onPick,
}: {
  commands: SlashCommand[];
  active: number;
  onPick: (c: SlashCommand) => void;
}) {
  return (
    <ul
      data-testid="slash-menu"
      role="listbox"
      className="max-h-[min(12rem,35dvh)] overflow-y-auto rounded border border-zinc-700 bg-zinc-900 py-0.5 shadow-lg"
    >
      {commands.map((c, i) => (
        <li key={c.name} role="option" aria-selected={i === active}>
          <button
            type="button"
            data-testid="slash-item"
            data-name={c.name}
            // mousedown, so the textarea keeps its focus
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(c);
            }}
            className={`flex w-full items-baseline gap-2 px-2 py-0.5 text-left text-xs ${i === active ? "bg-sky-500/20" : "hover:bg-zinc-800"}`}
          >
            <span className="shrink-0 font-mono text-sky-200">/{c.name}</span>
            <span className="truncate text-[11px] text-zinc-500">{c.description}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
