/**
 * The view map: each protocol's conversation view (the "Session" tab of the view pane, and each
 * side of /compare) and its Connect settings. The protocol's spec (lib/features/protocols/registry.ts) holds the rest;
 * views live here because lib/ holds no React. Adding a protocol: one line below.
 */
import type { ComponentType } from "react";
import type { ProtocolName } from "@/lib/protocol/protocols";
import type { Highlight } from "./session-view/highlight";
import { ThreadView } from "./app-server/ThreadView";
import { SessionView } from "./session-view/SessionView";
import { AppServerConnectNote, ConnectSettings, type ConnectSettingsProps } from "./compose/ConnectSettings";

/** What every conversation view takes. */
export interface ConversationViewProps {
  onHighlight: (highlight: Highlight) => void;
  /** Switch to the Frames view with this frame in view. */
  onShowFrames: (seq: number) => void;
}

export interface ProtocolViews {
  /** The conversation, folded by the protocol's own fold. */
  conversation: ComponentType<ConversationViewProps>;
  /** What Connect lets the user choose (or says it does) before the handshake. */
  connectSettings: ComponentType<ConnectSettingsProps>;
}

export const PROTOCOL_VIEWS: Readonly<Record<ProtocolName, ProtocolViews>> = {
  acp: { conversation: SessionView, connectSettings: ConnectSettings },
  // The session view folds a v2 conversation too (state_update idle ends the turn).
  "acp-v2": { conversation: SessionView, connectSettings: ConnectSettings },
  "codex-app-server": { conversation: ThreadView, connectSettings: AppServerConnectNote },
};
