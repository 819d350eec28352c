"use client";
/** The whole page: header, left column of controls, frame log and stderr. */
import { useEffect, useState } from "react";
import { AgentControls } from "./AgentControls";
import { Composer } from "./Composer";
import { ConnectionBadge } from "./ConnectionBadge";
import { FrameLog } from "./FrameLog";
import { PendingRequests } from "./PendingRequests";
import { StderrPane } from "./StderrPane";
import { TokenMessage } from "./TokenMessage";
import { useSession, useSessionStore } from "./use-session";

export function Playground() {
  const store = useSessionStore();
  const connection = useSession((s) => s.connection);
  // The draft lives here because both the composer and the pending list fill it.
  const [draft, setDraft] = useState("");

  useEffect(() => store.connect(), [store]);

  const locked = connection === "no-token" || connection === "unauthorized";

  return (
    <div className="flex h-dvh flex-col">
      <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-800 bg-zinc-900/70 px-3">
        <h1 className="text-sm font-semibold tracking-tight text-zinc-100">
          ACP Playground
        </h1>
        <span className="text-xs text-zinc-500">Agent Client Protocol · raw frames</span>
        <div className="ml-auto">
          <ConnectionBadge />
        </div>
      </header>
      {locked ? (
        <TokenMessage refused={connection === "unauthorized"} />
      ) : (
        <div className="flex min-h-0 flex-1">
          <aside className="flex w-[25rem] shrink-0 flex-col overflow-y-auto border-r border-zinc-800">
            <AgentControls />
            <Composer draft={draft} onDraftChange={setDraft} />
            <PendingRequests onPick={setDraft} />
          </aside>
          <main className="flex min-w-0 flex-1 flex-col">
            <FrameLog />
            <StderrPane />
          </main>
        </div>
      )}
    </div>
  );
}
