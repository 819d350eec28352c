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
 * One option as one argv entry, `--flag=VALUE`, so a value can never be read
 * as a flag of its own. A value starting with "-" is refused all the same: a
 * CLI that takes `--flag VALUE` elsewhere would still see it as an option.
 */
export function optionArg(flag: string, value: string): { ok: true; arg: string } | { ok: false; message: string } {
  if (value.startsWith("-")) return { ok: false, message: `option "${flag}" must not start with "-": ${value}` };
  return { ok: true, arg: `--${flag}=${value}` };
}
