"use client";
/** Relay connection state, shown in the header. */
import type { ConnectionState } from "./state/snapshot";
import { useSession } from "./state/use-session";

const LABEL: Record<ConnectionState, [string, string]> = {
  idle: ["starting", "bg-zinc-500"],
  "no-token": ["no token", "bg-red-500"],
  connecting: ["connecting…", "bg-amber-400"],
  connected: ["connected", "bg-emerald-400"],
  disconnected: ["reconnecting…", "bg-amber-400"],
  unauthorized: ["refused", "bg-red-500"],
};

export function ConnectionBadge() {
  const connection = useSession((s) => s.connection);
  const error = useSession((s) => s.connectionError);
  const version = useSession((s) => s.info?.version);
  const clientId = useSession((s) => s.clientId);
  const [label, dot] = LABEL[connection];
  return (
    <div className="flex items-center gap-3 text-xs text-zinc-400">
      {version ? <span className="text-zinc-400">relay {version}</span> : null}
      {/* The relay session's id only in the tooltip: bare, it meant nothing to a user. */}
      <span
        data-testid="connection"
        data-state={connection}
        className="flex items-center gap-1.5"
        title={error ?? (clientId ? `This tab's connection to the relay (session ${clientId.slice(0, 8)})` : undefined)}
      >
        <span className={`h-2 w-2 rounded-full ${dot}`} />
        {label}
      </span>
    </div>
  );
}
