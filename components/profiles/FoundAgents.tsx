"use client";
/**
 * "Found on this machine": agents the user configured for Zed or a JetBrains
 * IDE, each added here as a profile with one click (GET/POST /api/profiles/found).
 */
import { useCallback, useEffect, useState } from "react";
import { SOURCE_NAMES, type FoundAgentView } from "@/lib/features/connect/found-agents";
import { authHeaders, errorOf } from "../transcripts/api";

interface FoundList {
  agents: FoundAgentView[];
  problems: Array<{ file: string; message: string }>;
  configFile: string | null;
}
interface Added {
  profile: string;
  configFile?: string;
  snippet?: string;
}

const button = "rounded border border-zinc-700 px-2 py-0.5 text-xs text-zinc-200 hover:bg-zinc-800 disabled:opacity-40";

async function call<T>(token: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch("/api/profiles/found", {
    ...init,
    cache: "no-store",
    headers: { ...authHeaders(token), "content-type": "application/json" },
  });
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as T;
}

export function FoundAgents({ token, onAdded }: { token: string; onAdded: () => void }) {
  const [list, setList] = useState<FoundList>();
  const [error, setError] = useState<string>();
  const [added, setAdded] = useState<Added>();
  const [adding, setAdding] = useState<string>();

  const load = useCallback(
    () =>
      call<FoundList>(token)
        .then(setList)
        .catch((err: Error) => setError(err.message)),
    [token],
  );
  useEffect(() => void load(), [load]);

  const add = async (agent: FoundAgentView) => {
    setAdding(`${agent.source}:${agent.name}`);
    setError(undefined);
    try {
      setAdded(
        await call<Added>(token, { method: "POST", body: JSON.stringify({ source: agent.source, name: agent.name }) }),
      );
      onAdded();
      await load();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setAdding(undefined);
    }
  };

  if (!list) return error ? <p className="text-xs text-red-300">Could not look for agents: {error}</p> : null;
  return (
    <section className="flex flex-col gap-2" aria-label="Found on this machine" data-testid="found-agents">
      <div className="flex items-baseline gap-3">
        <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Found on this machine</h2>
        <span className="text-xs text-zinc-400">
          Agents configured for Zed (<code>agent_servers</code> in its settings) or a JetBrains IDE (
          <code>~/.jetbrains/acp.json</code>).{" "}
          {list.configFile ? (
            <>
              Adding one writes it into <code>{list.configFile}</code>.
            </>
          ) : (
            <>
              This server has no config file: an added agent lasts until it stops (start with --config FILE to keep it).
            </>
          )}
        </span>
      </div>
      {list.agents.length === 0 ? (
        <p className="text-xs text-zinc-500">None found.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {list.agents.map((a) => (
            <li
              key={`${a.source}:${a.name}`}
              data-testid="found-agent"
              data-name={a.name}
              className="flex flex-wrap items-baseline gap-2 text-xs"
            >
              <button
                type="button"
                data-testid="add-found"
                className={button}
                disabled={adding !== undefined || a.reason !== undefined || a.configuredAs !== undefined}
                onClick={() => void add(a)}
              >
                Add
              </button>
              <span className="text-zinc-100">{a.name}</span>
              <span className="text-zinc-500">{SOURCE_NAMES[a.source]}</span>
              {a.command ? (
                <code className="break-all text-zinc-300">{[a.command, ...(a.args ?? [])].join(" ")}</code>
              ) : null}
              {a.registry ? <span className="text-zinc-400">ACP registry entry</span> : null}
              {a.resolved ? (
                <span data-testid="found-resolved" className="text-zinc-400">
                  runs <code className="break-all text-zinc-300">{a.resolved}</code>
                </span>
              ) : a.reason === undefined ? (
                <span data-testid="found-resolved" className="text-amber-200">
                  not found on this machine
                </span>
              ) : null}
              {a.env?.length ? <span className="text-zinc-500">env: {a.env.join(", ")}</span> : null}
              {a.configuredAs ? (
                <span data-testid="found-configured" className="text-emerald-300">
                  configured as {a.configuredAs}
                </span>
              ) : null}
              {a.reason ? <span className="text-zinc-500">{a.reason}</span> : null}
            </li>
          ))}
        </ul>
      )}
      {list.problems.map((p) => (
        <p key={p.file} data-testid="found-problem" className="text-xs text-amber-200">
          {p.message}
        </p>
      ))}
      {added ? (
        <div data-testid="found-added" role="status" className="text-xs text-emerald-300">
          Added as profile <code>{added.profile}</code>
          {added.configFile ? (
            <> to {added.configFile}.</>
          ) : (
            <>
              {" "}
              for this run. To keep it, put this in a config file and start with <code>--config FILE</code>:
              <pre className="mt-1 overflow-auto rounded bg-zinc-900 p-2 text-zinc-300">{added.snippet}</pre>
            </>
          )}
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-xs text-red-300">
          {error}
        </p>
      ) : null}
    </section>
  );
}
