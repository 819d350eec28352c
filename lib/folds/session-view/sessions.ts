/** Responses that open or change a session: new, load, resume, fork, set_mode, set_config_option, set_model. */
import type { SessionMode } from "@agentclientprotocol/sdk";
import type { Frame } from "../../protocol/frame";
import { isObject, num, obj, str } from "../../protocol/json";
import { AGENT_METHODS, LEGACY_AGENT_METHODS } from "../../protocol/methods";
import { compact, type Draft, type Obj } from "./draft";
import { ownSession, track } from "./items";
import { configOptions } from "./updates";
import type { PendingRequest } from "./types";

export const SESSION_OPENERS = new Set<string>([
  AGENT_METHODS.session_new,
  AGENT_METHODS.session_load,
  AGENT_METHODS.session_resume,
  AGENT_METHODS.session_fork,
]);
export const TRACKED = new Set([
  ...SESSION_OPENERS,
  AGENT_METHODS.session_set_mode,
  AGENT_METHODS.session_set_config_option,
  LEGACY_AGENT_METHODS.session_set_model,
]);

/** Successful responses to session/new, load, resume, fork, set_mode, set_config_option, set_model. */
export function onResult(d: Draft, f: Frame, pend: PendingRequest, r: Obj): void {
  const params = obj(pend.params);
  const sessionId = str(r.sessionId) ?? pend.sessionId;
  if (sessionId === undefined) return;
  const s = ownSession(d, sessionId, f.seq);
  if (SESSION_OPENERS.has(pend.method)) {
    s.origin = compact({ method: pend.method, requestSeq: pend.seq, responseSeq: f.seq, cwd: str(params.cwd) });
  }
  if (isObject(r.modes)) {
    const modes = r.modes;
    if (typeof modes.currentModeId === "string") s.currentModeId = modes.currentModeId;
    if (Array.isArray(modes.availableModes)) s.availableModes = modes.availableModes as SessionMode[];
  }
  if (Array.isArray(r.configOptions)) s.configOptions = configOptions(r.configOptions);
  if (isObject(r.models)) s.models = r.models;
  if (pend.method === AGENT_METHODS.session_set_mode && typeof params.modeId === "string")
    s.currentModeId = params.modeId;
  if (pend.method === LEGACY_AGENT_METHODS.session_set_model && typeof params.modelId === "string") {
    s.models = { ...s.models, currentModelId: params.modelId };
  }
}

/** A session/load or session/resume sent: what the agent replays before answering is the session's history, anew. */
export function onReplayRequest(d: Draft, f: Frame, sessionId: string | undefined): void {
  track(d, f, { sessionId });
  if (sessionId === undefined || !Object.hasOwn(d.root.sessions, sessionId)) return;
  const s = ownSession(d, sessionId, f.seq);
  if (s.history.length > 0) s.history = [];
}

/** The agent's initialize response (paired by the sequencer, which names its method): the negotiated version. */
export function onInitializeResult(d: Draft, r: Obj): void {
  const v = num(r.protocolVersion);
  if (v === undefined || v === d.root.protocolVersion) return;
  d.state().protocolVersion = v;
}
