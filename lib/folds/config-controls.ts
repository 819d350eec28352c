/**
 * A session's config options, modes and (legacy) models as controls for the
 * session header: each validated and bounded, since the lists come from the
 * agent. A select keeps at most MAX_CHOICES values (groups flattened, the group
 * name kept), names and ids are cut to MAX_LABEL characters, an option of a kind
 * the playground does not know is listed in `skipped` with the reason, not
 * shown as a control. The request that changes each is built here too.
 */
import { isObject, str } from "../protocol/json";
import { AGENT_METHODS, LEGACY_AGENT_METHODS } from "../protocol/methods";

export const MAX_OPTIONS = 50;
export const MAX_CHOICES = 200;
export const MAX_LABEL = 120;

const cut = (s: string) => (s.length > MAX_LABEL ? `${s.slice(0, MAX_LABEL)}…` : s);

export interface Choice {
  value: string;
  name: string;
  group?: string;
  description?: string;
}

export type ConfigControl =
  | {
      kind: "select";
      id: string;
      name: string;
      category?: string;
      description?: string;
      current?: string;
      choices: Choice[];
      /** The current value is not among the choices (shown as such, not dropped). */
      currentUnknown: boolean;
    }
  | { kind: "boolean"; id: string; name: string; category?: string; description?: string; current: boolean };

export interface Controls {
  config: ConfigControl[];
  modes?: { current?: string; choices: Choice[] };
  /** `session/set_model` (removed from the spec, still answered by many agents). */
  models?: { current?: string; choices: Choice[] };
  /** Options not shown, with why. */
  skipped: string[];
}

function choice(v: unknown, idKey: string, group?: string): Choice | undefined {
  if (!isObject(v)) return undefined;
  const value = str(v[idKey]);
  if (value === undefined || value.length > 1_000) return undefined;
  const out: Choice = { value, name: cut(str(v.name) ?? value) };
  if (group !== undefined) out.group = group;
  const d = str(v.description);
  if (d) out.description = cut(d);
  return out;
}

function selectChoices(options: unknown[]): Choice[] {
  const out: Choice[] = [];
  for (const o of options) {
    if (out.length >= MAX_CHOICES) break;
    if (isObject(o) && Array.isArray(o.options)) {
      const group = cut(str(o.name) ?? str(o.group) ?? "");
      for (const inner of o.options as unknown[]) {
        if (out.length >= MAX_CHOICES) break;
        const c = choice(inner, "value", group);
        if (c) out.push(c);
      }
      continue;
    }
    const c = choice(o, "value");
    if (c) out.push(c);
  }
  return out;
}

function controlOf(o: unknown, skipped: string[]): ConfigControl | undefined {
  if (!isObject(o)) {
    skipped.push("an option that is not an object");
    return undefined;
  }
  // v1 names it `id`, the v2 draft `configId`.
  const id = str(o.id) ?? str(o.configId);
  if (id === undefined || id.length > 1_000) {
    skipped.push("an option without a string id");
    return undefined;
  }
  const base = {
    id,
    name: cut(str(o.name) ?? id),
    ...(str(o.category) ? { category: cut(str(o.category)!) } : {}),
    ...(str(o.description) ? { description: cut(str(o.description)!) } : {}),
  };
  if (o.type === "boolean") {
    if (typeof o.currentValue !== "boolean") {
      skipped.push(`${base.name}: boolean option without a boolean currentValue`);
      return undefined;
    }
    return { kind: "boolean", ...base, current: o.currentValue };
  }
  if (o.type === "select") {
    if (!Array.isArray(o.options)) {
      skipped.push(`${base.name}: select option without options`);
      return undefined;
    }
    const choices = selectChoices(o.options);
    const current = str(o.currentValue);
    return {
      kind: "select",
      ...base,
      ...(current !== undefined ? { current } : {}),
      choices,
      currentUnknown: current !== undefined && !choices.some((c) => c.value === current),
    };
  }
  skipped.push(`${base.name}: type ${JSON.stringify(o.type)?.slice(0, 40) ?? "missing"} is not select or boolean`);
  return undefined;
}

export interface SessionSettings {
  configOptions?: readonly unknown[];
  availableModes?: readonly unknown[];
  currentModeId?: string;
  models?: unknown;
}

/** The controls of one session (identity is not kept: memoise on the inputs). */
export function sessionControls(s: SessionSettings): Controls {
  const skipped: string[] = [];
  const list = Array.isArray(s.configOptions) ? s.configOptions : [];
  if (list.length > MAX_OPTIONS) skipped.push(`${list.length - MAX_OPTIONS} options past the first ${MAX_OPTIONS}`);
  const config = list.slice(0, MAX_OPTIONS).flatMap((o) => controlOf(o, skipped) ?? []);
  const out: Controls = { config, skipped };
  const modes = (Array.isArray(s.availableModes) ? s.availableModes : [])
    .slice(0, MAX_CHOICES)
    .flatMap((m) => choice(m, "id") ?? []);
  if (modes.length) out.modes = { ...(s.currentModeId ? { current: s.currentModeId } : {}), choices: modes };
  if (isObject(s.models) && Array.isArray(s.models.availableModels)) {
    const choices = (s.models.availableModels as unknown[])
      .slice(0, MAX_CHOICES)
      .flatMap((m) => choice(m, "modelId") ?? []);
    const current = str(s.models.currentModelId);
    if (choices.length) out.models = { ...(current ? { current } : {}), choices };
  }
  return out;
}

export interface ControlRequest {
  method: string;
  params: Record<string, unknown>;
}

/** The request that sets a config option (select: its value id; boolean: `type: "boolean"`). */
export function setConfigRequest(sessionId: string, control: ConfigControl, value: string | boolean): ControlRequest {
  const params: Record<string, unknown> =
    control.kind === "boolean"
      ? { sessionId, configId: control.id, type: "boolean", value: value === true }
      : { sessionId, configId: control.id, value: String(value) };
  return { method: AGENT_METHODS.session_set_config_option, params };
}

export const setModeRequest = (sessionId: string, modeId: string): ControlRequest => ({
  method: AGENT_METHODS.session_set_mode,
  params: { sessionId, modeId },
});

export const setModelRequest = (sessionId: string, modelId: string): ControlRequest => ({
  method: LEGACY_AGENT_METHODS.session_set_model,
  params: { sessionId, modelId },
});
