"use client";
/** The protocol of the tab's agent (running, exited, or the recording's): which views and policies apply. */
import { protocolOf, type ProtocolName } from "@/lib/protocol/protocols";
import type { AgentStatus } from "../state/snapshot";
import { useSession } from "../state/use-session";

const agentOf = (a: AgentStatus) => (a.state === "running" || a.state === "exited" ? a.agent : undefined);

export function useAgentProtocol(): ProtocolName {
  return useSession((s) => protocolOf(agentOf(s.agent)));
}

/** The agent's protocol, or before one runs the chosen profile's: what the tab's conversation view shows. */
export function useViewProtocol(): ProtocolName {
  return useSession((s) => {
    const agent = agentOf(s.agent);
    if (agent) return protocolOf(agent);
    const chosen = s.chosenProfile ?? s.info?.defaultProfile;
    return protocolOf(s.info?.profiles.find((p) => p.name === chosen));
  });
}
