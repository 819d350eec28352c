/** Answer policies kept per browser, so every tab and reload starts from the user's choice, not "ask". */
import { parseStoredPolicies, type PolicyMap } from "@/lib/features/answers/policy-presets";

export const POLICIES_KEY = "acp-playground.policies";

export function loadPolicies(): PolicyMap | undefined {
  try {
    return parseStoredPolicies(localStorage.getItem(POLICIES_KEY));
  } catch {
    return undefined;
  }
}

export function savePolicies(policies: PolicyMap | undefined): void {
  if (!policies) return;
  try {
    localStorage.setItem(POLICIES_KEY, JSON.stringify(policies));
  } catch {
    // Storage may be off: the policies then last for this tab only.
  }
}
