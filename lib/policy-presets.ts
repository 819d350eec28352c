/**
 * Named sets of answer policies the user picks in one click, and the parsing
 * of policies kept in the browser.
 */
import { CLIENT_METHODS } from "./methods";
import { ANSWERABLE_METHODS, POLICIES, type Policy } from "./policy";

export type PolicyMap = Record<string, Policy>;

export const READ_METHOD = CLIENT_METHODS.fs_read_text_file;

/** Every agent->client request the playground answers. */
export const PRESET_METHODS = ANSWERABLE_METHODS;

/** fs/read_text_file served without asking (the relay confines it to the workspace). */
export const READS_AUTO: PolicyMap = { [READ_METHOD]: "auto" };

export interface PolicyPreset {
  id: string;
  label: string;
  description: string;
  policies: PolicyMap;
}

const all = (policy: Policy): PolicyMap => Object.fromEntries(PRESET_METHODS.map((m) => [m, policy]));

export const POLICY_PRESETS: readonly PolicyPreset[] = [
  {
    id: "ask",
    label: "Ask for everything",
    description: "Every request waits for your answer.",
    policies: all("ask"),
  },
  {
    id: "writes",
    label: "Ask for writes only",
    description:
      "Reads inside the workspace and follow-ups on terminals you allowed are served; permissions, writes, new terminals and questions wait for you.",
    policies: {
      ...all("ask"),
      ...READS_AUTO,
      [CLIENT_METHODS.terminal_output]: "auto",
      [CLIENT_METHODS.terminal_wait_for_exit]: "auto",
      [CLIENT_METHODS.terminal_kill]: "auto",
      [CLIENT_METHODS.terminal_release]: "auto",
    },
  },
  {
    id: "auto",
    label: "Answer everything",
    description: "Permissions allowed once, files and terminals served in the workspace; questions still wait for you.",
    policies: { ...all("auto"), [CLIENT_METHODS.elicitation_create]: "ask" },
  },
];

/** The preset these policies match exactly, if any. */
export function matchingPreset(policies: PolicyMap | undefined): PolicyPreset | undefined {
  if (!policies) return undefined;
  return POLICY_PRESETS.find((p) => Object.keys(policies).every((m) => (p.policies[m] ?? "ask") === policies[m]));
}

/** Policies kept in the browser: known methods with valid values; anything else is dropped. */
export function parseStoredPolicies(text: string | null): PolicyMap | undefined {
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const out: PolicyMap = {};
  for (const [method, policy] of Object.entries(value)) {
    if ((PRESET_METHODS as readonly string[]).includes(method) && POLICIES.includes(policy as Policy))
      out[method] = policy as Policy;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The subset of `wanted` that differs from what the relay holds (nothing to send when empty). */
export function policyChanges(current: PolicyMap | undefined, wanted: PolicyMap): PolicyMap {
  return Object.fromEntries(Object.entries(wanted).filter(([m, p]) => current?.[m] !== undefined && current[m] !== p));
}
