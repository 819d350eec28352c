/**
 * Start options per profile (CLI flags chosen at start, sent as
 * `agent:start.options`). The relay lists each profile's option names in
 * relay:info; this knows how to present the ones it recognises and shows any
 * other name as a text field.
 */
import type { ProfileSummary } from "./wire";

export type OptionControl =
  | { name: string; kind: "text"; label: string; placeholder?: string }
  | { name: string; kind: "select"; label: string; values: string[] }
  | { name: string; kind: "checkbox"; label: string };

const KNOWN: Record<string, OptionControl> = {
  model: { name: "model", kind: "text", label: "model", placeholder: "the CLI's default" },
  approvalMode: {
    name: "approvalMode",
    kind: "select",
    label: "approval mode",
    values: ["default", "auto_edit", "yolo", "plan"],
  },
  skipTrust: { name: "skipTrust", kind: "checkbox", label: "trust the workspace (--skip-trust)" },
  speed: { name: "speed", kind: "select", label: "speed", values: ["1", "10", "instant"] },
};

export const SANDBOX_WARNING = "sandbox mode breaks ACP's stdio in the versions tested";

export function optionControls(profile: Pick<ProfileSummary, "options"> | undefined): OptionControl[] {
  return (profile?.options ?? []).map((name) => KNOWN[name] ?? { name, kind: "text", label: name });
}

/** The built-in Gemini profile (its options), where the sandbox warning belongs. */
export const isGeminiProfile = (profile: Pick<ProfileSummary, "name" | "options"> | undefined): boolean =>
  !!profile && profile.options.includes("approvalMode");

export type OptionValues = Record<string, string | boolean>;

/**
 * The `options` payload: only what the user set (an empty text, an unset
 * select or an unchecked box sends nothing), so a plain start can use the pool.
 */
export function optionsPayload(controls: OptionControl[], values: OptionValues): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const c of controls) {
    const v = values[c.name];
    if (c.kind === "checkbox") {
      if (v === true) out[c.name] = true;
    } else if (typeof v === "string" && v.trim() !== "") out[c.name] = v.trim();
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * A start option as a profile declares it in the config: the CLI flag it
 * becomes, and the values it takes (a pattern, a list, or none for a switch).
 */
export type OptionSpec =
  | { flag: string; type: "string"; pattern: RegExp }
  | { flag: string; type: "enum"; values: readonly string[] }
  | { flag: string; type: "boolean" };

/** Flags a config may declare: a long option, nothing an argv parser could read as more. */
export const FLAG_PATTERN = /^--[a-z0-9][a-z0-9-]{0,63}$/i;

/** Why a value is refused for an option, or undefined when it is good. */
export function optionValueProblem(name: string, spec: OptionSpec, value: unknown): string | undefined {
  if (spec.type === "boolean") return typeof value === "boolean" ? undefined : `option "${name}" takes true or false`;
  if (typeof value !== "string") return `option "${name}" takes a string`;
  // A value that reads as a flag would smuggle another option in.
  if (value.startsWith("-")) return `option "${name}" may not start with "-"`;
  const ok = spec.type === "enum" ? spec.values.includes(value) : spec.pattern.test(value);
  return ok ? undefined : `option "${name}" has a bad value`;
}

/** The argv for checked options: `--flag=VALUE` (never two words), a bare `--flag` for a switch set to true. */
export function optionArgs(specs: Record<string, OptionSpec>, options: Record<string, unknown>): string[] {
  const args: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    const spec = specs[name];
    if (!spec) continue;
    if (spec.type === "boolean") {
      if (value === true) args.push(spec.flag);
    } else if (typeof value === "string") args.push(`${spec.flag}=${value}`);
  }
  return args;
}
