/**
 * The card map: each protocol's card for an agent's request waiting for an answer (the left
 * column's pending requests and the conversation's inline requests), beside the view map
 * (components/protocol-views.ts). Apart from it because the conversation views show these cards:
 * this map imports the cards only, never a view, so no import runs in a circle. Adding a protocol:
 * one line below.
 */
import type { ComponentType } from "react";
import type { Frame } from "@/lib/protocol/frame";
import type { ProtocolName } from "@/lib/protocol/protocols";
import { AcpRequestCard } from "./answer/AcpRequestCard";
import { AppServerRequestCard } from "./app-server/AppServerRequestCard";

export interface RequestCardProps {
  /** The agent's request, unanswered. */
  frame: Frame;
  /** Its buttons take the answer keys (the first waiting card). */
  shortcuts?: boolean;
}

export const PROTOCOL_CARDS: Readonly<Record<ProtocolName, ComponentType<RequestCardProps>>> = {
  acp: AcpRequestCard,
  // ACP's card: it shows v2's permission `subject` (where v1 has `toolCall`) and title.
  "acp-v2": AcpRequestCard,
  "codex-app-server": AppServerRequestCard,
};
