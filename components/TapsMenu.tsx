"use client";
/** Tab-bar entry for tapped conversations: each one the relay knows, with a button that opens it in a tab. */
import { useEffect } from "react";
import { getTabsStore } from "./state/tabs-store";
import { getTapsStore } from "./state/taps-store";
import { useTaps } from "./state/use-taps";

export function TapsMenu() {
  const { taps, me } = useTaps();
  useEffect(() => getTapsStore().connect(), []);
  const live = taps.filter((t) => !t.exited);
  if (taps.length === 0) return null;
  return (
    <details className="relative flex items-stretch text-xs" data-testid="taps-menu">
      <summary className="flex cursor-pointer list-none items-center px-3 text-violet-300 hover:bg-zinc-900">
        Tapped ({live.length})
      </summary>
      <ul className="absolute right-0 top-full z-20 w-96 rounded-b border border-zinc-800 bg-zinc-950 p-1 shadow-lg">
        {taps.map((tap) => (
          <li
            key={tap.id}
            className="flex items-center gap-2 rounded px-2 py-1 hover:bg-zinc-900"
            data-testid="tap-entry"
          >
            <span
              className="min-w-0 flex-1 truncate text-zinc-300"
              title={[tap.agent.command, ...tap.agent.args].join(" ")}
            >
              {tap.agent.profile} · pid {tap.agent.pid} {tap.exited ? "· exited" : tap.connected ? "" : "· away"}
              {/* The admin is told of everyone's taps: whose each is. */}
              {tap.owner && tap.owner !== me?.owner ? <span data-testid="tap-owner"> · {tap.owner}</span> : null}
            </span>
            <button
              type="button"
              data-testid="watch-tap"
              onClick={() => getTabsStore().addTap(tap.clientId)}
              className="rounded border border-zinc-700 px-2 py-0.5 text-zinc-300 hover:border-violet-400 hover:text-violet-200"
            >
              Watch
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
