"use client";
/**
 * `providers/*` (unstable), where the agent advertises `agentCapabilities.providers`: list the
 * agent's model providers, point one at a model endpoint (providers/set) or disable it.
 */
import { useState } from "react";
import { agentErrorText } from "@/lib/features/connect/handshake";
import { readProviders, setProviderRequest, type ProviderView } from "@/lib/features/connect/providers";
import { AGENT_METHODS } from "@/lib/protocol/methods";
import { useSessionStore } from "../state/use-session";
import { alert, button, input } from "./ui";

/** LlmProtocol's named values (the schema also allows others). */
const API_TYPES = ["openai", "anthropic", "azure", "vertex", "bedrock"];

export function ProvidersForm() {
  const store = useSessionStore();
  const [providers, setProviders] = useState<ProviderView[]>();
  const [dropped, setDropped] = useState(0);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [chosen, setChosen] = useState("");
  const [apiType, setApiType] = useState("openai");
  const [baseUrl, setBaseUrl] = useState("");

  const call = async (method: string, params: unknown) => {
    setBusy(true);
    setError(undefined);
    const out = await store.request(method, params);
    setBusy(false);
    if (out.kind === "error") setError(`${method}: ${agentErrorText(out.error)}`);
    else if (out.kind === "failed") setError(`${method}: ${out.message}`);
    return out.kind === "result" ? out.result : undefined;
  };
  const list = async () => {
    const result = await call(AGENT_METHODS.providers_list, {});
    if (result === undefined) return;
    const r = readProviders(result);
    setProviders(r.providers);
    setDropped(r.dropped);
    if (!r.providers.some((p) => p.providerId === chosen)) setChosen(r.providers[0]?.providerId ?? "");
  };
  const set = async () => {
    const req = setProviderRequest(chosen, apiType, baseUrl);
    if ("error" in req) return setError(req.error);
    if ((await call(req.method, req.params)) !== undefined) await list();
  };
  const disable = async () => {
    if ((await call(AGENT_METHODS.providers_disable, { providerId: chosen })) !== undefined) await list();
  };

  return (
    <details
      className="rounded border border-zinc-800 px-2 py-1 text-[11px] text-zinc-400"
      data-testid="providers-form"
    >
      <summary className="cursor-pointer">
        Model provider <span className="text-fuchsia-300">unstable</span> (providers/list, set, disable)
      </summary>
      <div className="mt-1 flex flex-col gap-1">
        <button
          type="button"
          className={button}
          onClick={() => void list()}
          disabled={busy}
          data-testid="providers-list"
        >
          List providers
        </button>
        {providers ? (
          <ul className="flex flex-col gap-0.5" data-testid="providers">
            {providers.map((p) => (
              <li key={p.providerId} className="font-mono">
                {p.providerId}
                {p.required ? " (required)" : ""} · {p.supported.join(", ") || "no protocol"} ·{" "}
                {p.current ? `${p.current.apiType} ${p.current.baseUrl}` : "disabled"}
              </li>
            ))}
            {dropped ? <li className="text-amber-300">{dropped} entries were not providers</li> : null}
          </ul>
        ) : null}
        {providers?.length ? (
          <form
            className="flex flex-wrap items-center gap-1"
            onSubmit={(e) => {
              e.preventDefault();
              void set();
            }}
          >
            <select className={`${input} w-auto`} value={chosen} onChange={(e) => setChosen(e.target.value)}>
              {providers.map((p) => (
                <option key={p.providerId}>{p.providerId}</option>
              ))}
            </select>
            <select className={`${input} w-auto`} value={apiType} onChange={(e) => setApiType(e.target.value)}>
              {API_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
            <input
              className={input}
              placeholder="https://host/v1"
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
              data-testid="provider-url"
            />
            <button type="submit" className={button} disabled={busy || !chosen} data-testid="provider-set">
              Set
            </button>
            <button type="button" className={button} disabled={busy || !chosen} onClick={() => void disable()}>
              Disable
            </button>
          </form>
        ) : null}
        {error ? <p className={alert}>{error}</p> : null}
      </div>
    </details>
  );
}
