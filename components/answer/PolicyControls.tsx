"use client";
/**
 * How the relay answers each agent->client method: ask (a card), auto
 * (served / allowed once), deny (an error), set one by one or by a preset.
 * Sent with policy:set as soon as it changes; what is shown is what the relay
 * acknowledged. The choice is kept in this browser and applied to every tab.
 */
import { useEffect, useRef, useState } from "react";
import { POLICIES, policyMethodsOf, type Policy } from "@/lib/contracts/policies";
import { matchingPreset, POLICY_PRESETS, policyChanges, type PolicyMap } from "@/lib/features/answers/policy-presets";
import { useAgentProtocol } from "../app-server/use-protocol";
import { input } from "../compose/ui";
import { useSession, useSessionStore } from "../state/use-session";
import { loadPolicies, savePolicies } from "./policy-storage";

/**
 * Applies the browser's kept policies once the relay has told this tab its own,
 * unless the page already set its own (the compare page grants permissions on its
 * sides; a user's choice made before the kept ones arrive wins too).
 */
export function usePersistedPolicies(): void {
  const store = useSessionStore();
  const policies = useSession((s) => s.policies);
  const connected = useSession((s) => s.connection === "connected");
  // Once per attach: later changes come from this browser's own controls, which keep them.
  const applied = useRef(false);
  useEffect(() => {
    if (!connected || !policies || applied.current) return;
    applied.current = true;
    if (store.policiesSetByPage) return;
    const kept = loadPolicies();
    const changes = kept ? policyChanges(policies, kept) : {};
    if (Object.keys(changes).length) void store.setPolicies(changes);
  }, [store, policies, connected]);
}

export function PolicyControls() {
  const store = useSessionStore();
  const policies = useSession((s) => s.policies);
  const connected = useSession((s) => s.connection === "connected");
  const [pending, setPending] = useState<string>();
  const [error, setError] = useState<string>();
  // The relay lists every method it has a policy for: it is the authority on which ones exist.
  // Those of the agent's protocol are shown (the other protocol's methods never come from it).
  const relevant = policyMethodsOf(useAgentProtocol());
  const methods = policies ? Object.keys(policies).filter((m) => relevant.includes(m)) : [];
  const preset = matchingPreset(policies);

  const change = async (key: string, next: PolicyMap) => {
    setPending(key);
    setError(undefined);
    const err = await store.setPolicies(next);
    setPending(undefined);
    if (err) setError(err.message);
    else savePolicies(store.getSnapshot().policies);
  };

  return (
    <div className="flex flex-col gap-1.5" data-testid="policy-controls">
      <div className="flex flex-wrap gap-1" role="group" aria-label="Policy presets">
        {POLICY_PRESETS.map((p) => (
          <button
            key={p.id}
            type="button"
            data-testid="policy-preset"
            data-preset={p.id}
            aria-pressed={preset?.id === p.id}
            disabled={!connected || pending !== undefined}
            title={p.description}
            onClick={() => void change(`preset:${p.id}`, policyChanges(policies, p.policies))}
            className={`rounded border px-1.5 py-0.5 text-[11px] ${
              preset?.id === p.id
                ? "border-sky-500/70 bg-sky-500/10 text-sky-100"
                : "border-zinc-700 text-zinc-300 hover:bg-zinc-800"
            }`}
          >
            {p.label}
          </button>
        ))}
      </div>
      <div className="grid grid-cols-[1fr_auto] items-center gap-x-2 gap-y-0.5">
        {methods.map((method) => (
          <label key={method} className="contents text-[11px] text-zinc-400">
            <span className="truncate font-mono">{method}</span>
            <select
              data-testid="policy-select"
              data-method={method}
              data-acked={policies?.[method] ?? ""}
              className={`${input} w-20 py-0`}
              value={policies?.[method] ?? ""}
              disabled={!connected || pending === method}
              onChange={(e) => void change(method, { [method]: e.target.value as Policy })}
            >
              {POLICIES.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {policies ? null : <p className="text-[11px] text-zinc-600">waiting for the relay…</p>}
      {error ? <p className="text-[11px] text-red-300">{error}</p> : null}
    </div>
  );
}
