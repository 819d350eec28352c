/**
 * Named sets of answer policies the user picks in one click, and the parsing
 * of policies kept in the browser.
 */
import { APP_SERVER_REQUESTS } from "../../protocol/app-server-methods";
import { CLIENT_METHODS } from "../../protocol/methods";
import { ANSWERABLE_METHODS, POLICIES, UNKNOWN_METHODS, type Policy } from "../../contracts/policies";

export type PolicyMap = Record<string, Policy>;

export const READ_METHOD = CLIENT_METHODS.fs_read_text_file;

/** Every agent->client request the playground answers, and the key for methods outside ACP. */
export const PRESET_METHODS: readonly string[] = [...ANSWERABLE_METHODS, UNKNOWN_METHODS];

/** fs/read_text_file served without asking (the relay confines it to the workspace). */
export const READS_AUTO: PolicyMap = { [READ_METHOD]: "auto" };

export interface PolicyPreset {
  id: string;
  label: string;
  description: string;
  policies: PolicyMap;
}

/**
 * Every preset refuses methods outside ACP (-32601, the relay's default): an agent
 * waiting on one would hang, and none of the presets is about them.
 */
const all = (policy: Policy): PolicyMap => ({
  ...Object.fromEntries(ANSWERABLE_METHODS.map((m) => [m, policy])),
  [UNKNOWN_METHODS]: "deny",
});

export const POLICY_PRESETS: readonly PolicyPreset[] = [
  {
    id: "ask",
    label: "Ask for everything",
    description: "Every request waits for your answer (methods outside ACP are refused with -32601).",
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
    policies: {
      ...all("auto"),
      [CLIENT_METHODS.elicitation_create]: "ask",
      [APP_SERVER_REQUESTS.tool_user_input]: "ask",
    },
  },
];

/**
 * The preset these policies match, if any: every method the preset names has the
 * preset's policy. Methods the preset does not name (a relay newer than this page)
 * do not decide.
 */
export function matchingPreset(policies: PolicyMap | undefined): PolicyPreset | undefined {
  if (!policies || Object.keys(policies).length === 0) return undefined;
  return POLICY_PRESETS.find((p) =>
    Object.entries(p.policies).every(([m, policy]) => policies[m] === undefined || policies[m] === policy),
  );
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
    if (PRESET_METHODS.includes(method) && POLICIES.includes(policy as Policy)) out[method] = policy as Policy;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The subset of `wanted` that differs from what the relay holds (nothing to send when empty). */
export function policyChanges(current: PolicyMap | undefined, wanted: PolicyMap): PolicyMap {
  return Object.fromEntries(Object.entries(wanted).filter(([m, p]) => current?.[m] !== undefined && current[m] !== p));
}
