"use client";
/**
 * How the relay answers each agent->client method: ask (a card here), auto
 * (served / allowed once), deny (an error). Sent with policy:set as soon as it
 * changes; what is shown is what the relay acknowledged.
 */
import { useState } from "react";
import { POLICIES, type Policy } from "@/lib/policy";
import { input } from "../compose/ui";
import { useSession, useSessionStore } from "../state/use-session";

export function PolicyControls() {
  const store = useSessionStore();
  const policies = useSession((s) => s.policies);
  const connected = useSession((s) => s.connection === "connected");
  const [pending, setPending] = useState<string>();
  const [error, setError] = useState<string>();
  // The relay lists every method it has a policy for: it is the authority on which ones exist.
  const methods = policies ? Object.keys(policies) : [];

  const change = async (method: string, policy: Policy) => {
    setPending(method);
    setError(undefined);
    const err = await store.setPolicies({ [method]: policy });
    setPending(undefined);
    if (err) setError(err.message);
  };

  return (
    <div className="flex flex-col gap-1" data-testid="policy-controls">
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
              onChange={(e) => void change(method, e.target.value as Policy)}
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
