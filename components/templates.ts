/**
 * Frame templates for the raw composer. They are only starting points the user
 * edits before sending; the foundation never sends anything by itself.
 */
import { initializeParams, sessionNewParams } from "@/lib/features/connect/handshake";
import type { Frame } from "@/lib/protocol/frame";
import { isObject } from "@/lib/protocol/json";
import { AGENT_METHODS, CLIENT_METHODS } from "@/lib/protocol/methods";

const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

export function initializeTemplate(id: number): string {
  return pretty({
    jsonrpc: "2.0",
    id,
    method: AGENT_METHODS.initialize,
    params: initializeParams({
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    }),
  });
}

export function sessionNewTemplate(id: number, cwd: string): string {
  return pretty({ jsonrpc: "2.0", id, method: AGENT_METHODS.session_new, params: sessionNewParams(cwd) });
}

export function sessionPromptTemplate(id: number, sessionId: string | undefined, text = "Hello!"): string {
  return pretty({
    jsonrpc: "2.0",
    id,
    method: AGENT_METHODS.session_prompt,
    params: { sessionId: sessionId ?? "<sessionId from session/new>", prompt: [{ type: "text", text }] },
  });
}

/** The first option a permission request offers, if any. */
function firstOptionId(request: Frame): string | undefined {
  const params = isObject(request.message) ? request.message.params : undefined;
  const options = isObject(params) ? params.options : undefined;
  const first: unknown = Array.isArray(options) ? options[0] : undefined;
  return isObject(first) && typeof first.optionId === "string" ? first.optionId : undefined;
}

/** A plausible result for an agent->client request, to edit before sending. */
function resultFor(request: Frame): unknown {
  switch (request.method) {
    case CLIENT_METHODS.session_request_permission: {
      const optionId = firstOptionId(request);
      return optionId ? { outcome: { outcome: "selected", optionId } } : { outcome: { outcome: "cancelled" } };
    }
    case CLIENT_METHODS.fs_read_text_file:
      return { content: "" };
    default:
      return {};
  }
}

export function responseTemplate(request: Frame): string {
  return pretty({ jsonrpc: "2.0", id: request.id ?? null, result: resultFor(request) });
}
