/**
 * Session view: folds frames into a decoded conversation per ACP session
 * (turns, messages, thoughts, tool calls, plans, session state). Used by the
 * live session view, transcript playback and tests.
 *
 * Pure: `reduceFrame` never mutates its input and returns the same state object
 * when a frame changes nothing. Internally every write goes through a
 * copy-on-write draft: an object is copied the first time it is written within
 * one call, and written in place after that, so `reduceFrames` over 100k frames
 * copies each object at most once while the caller's state stays untouched.
 */
import type { Frame } from "../../protocol/frame";
import { isObject, obj, str } from "../../protocol/json";
import { AGENT_METHODS, CLIENT_METHODS } from "../../protocol/methods";
import { Draft } from "./draft";
import { take, track } from "./items";
import { onInitializeResult, onReplayRequest, onResult, TRACKED } from "./sessions";
import { onTerminalResult } from "./terminals";
import { onPermissionRequest, onPermissionResponse } from "./tool-calls";
import { onCancel, onPrompt, onPromptResponse } from "./turns";
import type { SessionViewState } from "./types";
import { onUpdate } from "./updates";

export * from "./types";
export { SeqList } from "./seq-list";
export { terminalOf } from "./terminals";
export { subagentShownElsewhere } from "./subagents";

export function emptyView(): SessionViewState {
  return { sessions: {}, order: [], pending: {}, terminals: {} };
}

/**
 * Whether a conversation's state is a session view: what a view shown for the protocol a page
 * chose checks before reading the snapshot's conversation (it may still be the last agent's).
 */
export const isSessionView = (state: unknown): state is SessionViewState =>
  isObject(state) && isObject(state.sessions) && Array.isArray(state.order) && isObject(state.terminals);

/** The terminal with this id, if the view knows it (ids come off the wire: own keys only). */

export function reduceFrame(state: SessionViewState, frame: Frame): SessionViewState {
  const d = new Draft(state);
  apply(d, frame);
  return d.root;
}

export function reduceFrames(frames: Iterable<Frame>, state: SessionViewState = emptyView()): SessionViewState {
  const d = new Draft(state);
  for (const frame of frames) apply(d, frame);
  return d.root;
}

function apply(d: Draft, f: Frame): void {
  if (!isObject(f.message)) return;
  const m = f.message;
  switch (f.kind) {
    case "notification":
      if (f.dir === "from-agent" && f.method === CLIENT_METHODS.session_update) onUpdate(d, f, obj(m.params));
      else if (f.dir === "to-agent" && f.method === AGENT_METHODS.session_cancel) onCancel(d, f, obj(m.params));
      return;
    case "request": {
      if (f.id === undefined || f.method === undefined) return;
      const params = obj(m.params);
      if (f.dir === "to-agent") {
        if (f.method === AGENT_METHODS.session_prompt) onPrompt(d, f, params);
        else if (f.method === AGENT_METHODS.session_load || f.method === AGENT_METHODS.session_resume)
          onReplayRequest(d, f, str(params.sessionId));
        else if (TRACKED.has(f.method)) track(d, f, { sessionId: str(params.sessionId) });
      } else if (f.method === CLIENT_METHODS.session_request_permission) {
        onPermissionRequest(d, f, f.id, params);
      } else if (f.method.startsWith("terminal/")) {
        track(d, f, { sessionId: str(params.sessionId) });
      }
      return;
    }
    case "response": {
      if (f.requestSeq === undefined) return;
      if (f.dir === "from-agent" && isInitializeResult(f, m)) {
        onInitializeResult(d, obj(m.result));
        return;
      }
      const pend = take(d, f.requestSeq);
      if (!pend) return;
      if (pend.method === AGENT_METHODS.session_prompt) onPromptResponse(d, f, pend, m);
      else if (pend.method === CLIENT_METHODS.session_request_permission) onPermissionResponse(d, f, pend, m);
      else if ("error" in m) return;
      else if (pend.method.startsWith("terminal/")) onTerminalResult(d, f, pend, obj(m.result));
      else onResult(d, f, pend, obj(m.result));
      return;
    }
    default:
      return;
  }
}

/** The sequencer names a response's method; a recording paired on load does not, so know it by its shape too. */
function isInitializeResult(f: Frame, m: Record<string, unknown>): boolean {
  if (f.method !== undefined) return f.method === AGENT_METHODS.initialize && isObject(m.result);
  const r = m.result;
  return isObject(r) && typeof r.protocolVersion === "number" && isObject(r.agentCapabilities);
}
