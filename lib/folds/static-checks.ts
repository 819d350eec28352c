/**
 * Checks that need nothing but the frame itself: ACP v1's methods by kind and direction.
 * Below both frame-checks.ts (the inspector's checks, which need a FrameIndex) and
 * recording-rules.ts (which the FrameIndex folds), so neither imports the other's floor.
 */
import type { Frame, FrameDirection } from "../protocol/frame";
import { AGENT_METHODS, CLIENT_METHODS, PROTOCOL_METHODS } from "../protocol/methods";

/**
 * ACP v1 methods by kind and by the direction they travel, as annotated in the
 * SDK's schema (`x-method`, `x-side`); frame-checks.test.ts keeps them in sync.
 * `x-side: "agent"` means the agent handles it (sent to-agent).
 */
export const ACP_REQUESTS: Readonly<Record<string, FrameDirection>> = {
  initialize: "to-agent",
  authenticate: "to-agent",
  logout: "to-agent",
  [AGENT_METHODS.session_new]: "to-agent",
  [AGENT_METHODS.session_load]: "to-agent",
  [AGENT_METHODS.session_list]: "to-agent",
  [AGENT_METHODS.session_delete]: "to-agent",
  [AGENT_METHODS.session_resume]: "to-agent",
  [AGENT_METHODS.session_close]: "to-agent",
  [AGENT_METHODS.session_set_mode]: "to-agent",
  [AGENT_METHODS.session_set_config_option]: "to-agent",
  [AGENT_METHODS.session_prompt]: "to-agent",
  [CLIENT_METHODS.fs_write_text_file]: "from-agent",
  [CLIENT_METHODS.fs_read_text_file]: "from-agent",
  [CLIENT_METHODS.session_request_permission]: "from-agent",
  [CLIENT_METHODS.terminal_create]: "from-agent",
  [CLIENT_METHODS.terminal_output]: "from-agent",
  [CLIENT_METHODS.terminal_release]: "from-agent",
  [CLIENT_METHODS.terminal_wait_for_exit]: "from-agent",
  [CLIENT_METHODS.terminal_kill]: "from-agent",
  [CLIENT_METHODS.elicitation_create]: "from-agent",
};

/** Notifications; `$/cancel_request` may travel either way. */
export const ACP_NOTIFICATIONS: Readonly<Record<string, FrameDirection | "both">> = {
  [CLIENT_METHODS.session_update]: "from-agent",
  [CLIENT_METHODS.elicitation_complete]: "from-agent",
  [AGENT_METHODS.session_cancel]: "to-agent",
  [PROTOCOL_METHODS.cancel_request]: "both",
};

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export type CheckCode =
  | "orphan-response"
  | "unanswered"
  | "reused-id"
  | "notification-with-id"
  | "request-without-id"
  | "wrong-direction"
  | "not-advertised"
  | "unknown-session"
  | "pending-tool-calls"
  | "schema";

export interface FrameCheck {
  code: CheckCode;
  message: string;
}

export const CHECK_LABEL: Record<CheckCode, string> = {
  "orphan-response": "orphan response",
  unanswered: "unanswered",
  "reused-id": "reused id",
  "notification-with-id": "notification with id",
  "request-without-id": "request without id",
  "wrong-direction": "wrong direction",
  "not-advertised": "not advertised",
  "unknown-session": "unknown session",
  "pending-tool-calls": "tool calls pending",
  schema: "schema",
};

/** The sequencer's error on a response no request waits for. */
export const NO_PENDING = "response to an id with no pending request";

/** Checks that need nothing but the frame itself. */
export function staticChecks(frame: Frame): FrameCheck[] {
  const out: FrameCheck[] = [];
  if (frame.kind === "response" && frame.error === NO_PENDING) {
    out.push({
      code: "orphan-response",
      message: `response to id ${JSON.stringify(frame.id)}, which no pending request has`,
    });
  }
  const m = frame.method;
  if (m !== undefined && (frame.kind === "request" || frame.kind === "notification")) {
    if (frame.kind === "request" && has(ACP_NOTIFICATIONS, m)) {
      out.push({
        code: "notification-with-id",
        message: `${m} is a notification but was sent with id ${JSON.stringify(frame.id)}`,
      });
    }
    if (frame.kind === "notification" && has(ACP_REQUESTS, m)) {
      out.push({
        code: "request-without-id",
        message: `${m} is a request but was sent without an id: it can never be answered`,
      });
    }
    const expected = has(ACP_REQUESTS, m)
      ? ACP_REQUESTS[m]
      : has(ACP_NOTIFICATIONS, m)
        ? ACP_NOTIFICATIONS[m]
        : undefined;
    if (expected !== undefined && expected !== "both" && expected !== frame.dir) {
      out.push({
        code: "wrong-direction",
        message: `${m} is sent ${expected === "to-agent" ? "by the client to the agent" : "by the agent to the client"}, this went the other way`,
      });
    }
  }
  return out;
}
