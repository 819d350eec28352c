"use client";
/** What an ACP agent's request asks, with its answer buttons: permission, fs and terminal, elicitation. */
import { describePending } from "@/lib/features/answers/agent-answers";
import type { Frame } from "@/lib/protocol/frame";
import { ElicitationCard } from "./ElicitationCard";
import { PermissionCard } from "./PermissionCard";
import { ServeCard } from "./ServeCard";

export function AcpRequestCard({ frame, shortcuts = false }: { frame: Frame; shortcuts?: boolean }) {
  const view = describePending(frame);
  switch (view.kind) {
    case "permission":
      return <PermissionCard frame={frame} view={view} shortcuts={shortcuts} />;
    case "fs-read":
    case "fs-write":
    case "terminal-create":
    case "terminal":
      return <ServeCard frame={frame} view={view} shortcuts={shortcuts} />;
    case "elicitation":
      return <ElicitationCard frame={frame} view={view} />;
    case "other":
      return <p className="text-[11px] text-zinc-500">No card for this method: answer it by hand.</p>;
  }
}
