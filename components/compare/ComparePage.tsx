"use client";
/**
 * /compare: pick two profiles (or one profile twice with other options, such
 * as two models), type one prompt, and both agents run it at once, each with
 * its own relay session, workspace and transcript; the pair is then saved as a
 * comparison. Saved comparisons are listed below the form.
 */
import { defaultSides } from "./compare-defaults";
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { sideLabel } from "@/lib/contracts/compare-format";
import type { ProfileDetails } from "@/lib/contracts/wire";
import { SessionStore } from "../state/session-store";
import type { Tab } from "../state/tabs-store";
import { PageFrame } from "../transcripts/PageFrame";
import { api } from "../transcripts/api";
import { compareApi } from "./compare-api";
import { runSideInTab, type SideSetup } from "./run-side";
import { SplitView } from "./SplitView";
import { useComparisons } from "./use-comparisons";

const SIDES = ["a", "b"] as const;

function makeTab(token: string, side: "a" | "b", run: number): Tab {
  // A clientId of its own per run: a reload never re-attaches to a finished comparison's agent.
  const store = new SessionStore({ token, clientIdKey: `acp-playground.compare.${side}.${run}` });
  return { id: -1 - SIDES.indexOf(side), store, ui: new Map() };
}

function Form({ token }: { token: string }) {
  const [profiles, setProfiles] = useState<ProfileDetails[]>([]);
  const [setup, setSetup] = useState<Record<"a" | "b", { profile: string; model: string }>>({
    a: { profile: "", model: "" },
    b: { profile: "", model: "" },
  });
  const [prompt, setPrompt] = useState("");
  const [run, setRun] = useState(0);
  const [status, setStatus] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const [busy, setBusy] = useState(false);
  const comparisons = useComparisons(token, saved);
  const tabs = useMemo(
    () => (run ? { a: makeTab(token, "a", run), b: makeTab(token, "b", run) } : undefined),
    [token, run],
  );

  useEffect(() => {
    api(token)
      .profiles()
      .then((list) => {
        setProfiles(list);
        const picked = defaultSides(list);
        setSetup((s) => ({
          a: { ...s.a, profile: s.a.profile || picked.a },
          b: { ...s.b, profile: s.b.profile || picked.b },
        }));
      })
      .catch((e: Error) => setStatus(e.message));
  }, [token]);

  useEffect(() => {
    if (!tabs) return;
    for (const t of [tabs.a, tabs.b]) t.store.connect();
    return () => {
      for (const t of [tabs.a, tabs.b]) {
        void t.store.stopAgent().finally(() => t.store.dispose());
      }
    };
  }, [tabs]);

  const sides: Record<"a" | "b", SideSetup> = {
    a: { profile: setup.a.profile, options: setup.a.model ? { model: setup.a.model } : undefined },
    b: { profile: setup.b.profile, options: setup.b.model ? { model: setup.b.model } : undefined },
  };
  const labels = SIDES.map((s) => sideLabel(sides[s].profile, sides[s].options));
  if (labels[0] === labels[1]) {
    labels[0] += " (A)";
    labels[1] += " (B)";
  }

  function start() {
    setBusy(true);
    setSaved(undefined);
    setStatus("running both agents…");
    setRun(run + 1);
  }

  // Runs once the new tabs are connected (effect above), so both sides start together.
  useEffect(() => {
    if (!tabs || !busy) return;
    let cancelled = false;
    void (async () => {
      try {
        const ws = await compareApi(token).workspaces();
        const results = await Promise.all(
          SIDES.map((s, i) => runSideInTab(tabs[s].store, sides[s], { cwd: ws.cwd[i]!, path: ws.paths[i]! }, prompt)),
        );
        if (cancelled) return;
        // Stopped once answered: their transcripts are then complete.
        await Promise.all(SIDES.map((s) => tabs[s].store.stopAgent()));
        const failed = results.map((r, i) => (r.ok ? undefined : `${labels[i]}: ${r.message}`)).filter(Boolean);
        const ids = results.map((r) => r.transcriptId);
        if (ids.every(Boolean)) {
          const record = await compareApi(token).save({
            prompt,
            sides: SIDES.map((s, i) => ({
              label: labels[i]!,
              profile: sides[s].profile,
              ...(sides[s].options ? { options: sides[s].options } : {}),
              transcriptId: ids[i]!,
            })) as [never, never],
          });
          setSaved(record.id);
        }
        setStatus(failed.length ? failed.join("; ") : "done");
      } catch (e) {
        if (!cancelled) setStatus((e as Error).message);
      } finally {
        if (!cancelled) setBusy(false);
      }
    })();
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- Only a new run starts this.
  }, [tabs]);

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <header data-testid="compare-help" className="border-b border-zinc-800 px-3 pt-3 text-xs text-zinc-400">
        {/* The page's one h1 is the header's; a page title is an h2, as on Transcripts and Profiles. */}
        <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">
          Side by side: two agents, one prompt
        </h2>
        <p className="mt-1 max-w-4xl">
          One prompt, two agents at once: pick two profiles (or one twice with another model). Each side runs in an
          empty workspace of its own; their conversations show side by side, then answers, tool calls and timings line
          up in the saved comparison. Both transcripts are tagged “comparison” on the Transcripts page.
        </p>
      </header>
      <form
        data-testid="compare-form"
        className="flex flex-wrap items-end gap-3 border-b border-zinc-800 p-3 text-xs"
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy && prompt.trim()) start();
        }}
      >
        {SIDES.map((s) => (
          <fieldset key={s} className="flex items-end gap-2">
            <label className="flex flex-col gap-1 text-zinc-400">
              {s.toUpperCase()} profile
              <select
                data-testid={`compare-profile-${s}`}
                value={setup[s].profile}
                onChange={(e) => setSetup({ ...setup, [s]: { ...setup[s], profile: e.target.value } })}
                className="rounded border border-zinc-700 bg-zinc-900 px-2 py-1 text-zinc-200"
              >
                <ProfileOptions profiles={profiles} />
              </select>
            </label>
            <label className="flex flex-col gap-1 text-zinc-400">
              model
              <input
                data-testid={`compare-model-${s}`}
                value={setup[s].model}
                placeholder="default"
                onChange={(e) => setSetup({ ...setup, [s]: { ...setup[s], model: e.target.value } })}
                disabled={!profiles.find((p) => p.name === setup[s].profile)?.options.includes("model")}
                className="w-36 rounded border border-zinc-700 bg-zinc-900 px-2 py-1 text-zinc-200 disabled:opacity-40"
              />
            </label>
          </fieldset>
        ))}
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-zinc-400">
          prompt
          <input
            data-testid="compare-prompt"
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            className="rounded border border-zinc-700 bg-zinc-900 px-2 py-1 text-zinc-200"
          />
        </label>
        <button
          type="submit"
          data-testid="compare-run"
          disabled={busy || !prompt.trim() || !setup.a.profile || !setup.b.profile}
          className="rounded bg-sky-700 px-3 py-1 text-zinc-100 hover:bg-sky-600 disabled:bg-zinc-800 disabled:text-zinc-500"
        >
          Run both
        </button>
        <span data-testid="compare-status" role="status" className="text-zinc-400">
          {status}
        </span>
        {saved ? (
          <Link
            data-testid="compare-saved"
            href={`/compare/${saved}`}
            className="text-sky-400 underline underline-offset-2 hover:text-sky-300"
          >
            saved: open the comparison
          </Link>
        ) : null}
      </form>
      {tabs ? (
        <SplitView a={{ tab: tabs.a, label: labels[0]! }} b={{ tab: tabs.b, label: labels[1]! }} />
      ) : (
        <ComparisonList comparisons={comparisons} />
      )}
    </div>
  );
}

/**
 * A side's choices: a profile whose command is missing here, or that cannot start now, is
 * shown disabled with why (picking it only failed at Run); one without credentials says so.
 */
export function ProfileOptions({ profiles }: { profiles: readonly ProfileDetails[] }) {
  return (
    <>
      {profiles.map((p) => {
        const why = !p.available ? "not found here" : p.unavailable ? "cannot start now" : undefined;
        return (
          <option key={p.name} value={p.name} disabled={why !== undefined}>
            {p.name}
            {why ? ` (${why})` : p.credentialsMissing ? " (no credentials)" : ""}
          </option>
        );
      })}
    </>
  );
}

export function ComparisonList({ comparisons }: { comparisons: ReturnType<typeof useComparisons> }) {
  return (
    <section className="p-3 text-xs">
      <h2 className="mb-2 text-xs font-semibold uppercase tracking-wider text-zinc-400">Saved comparisons</h2>
      {comparisons.error ? <p className="text-red-400">{comparisons.error}</p> : null}
      {comparisons.list.length === 0 ? (
        <p className="text-zinc-400">None yet: run a prompt on two agents above.</p>
      ) : (
        <ul data-testid="comparison-list" className="space-y-1">
          {comparisons.list.map((c) => (
            <li key={c.id} data-testid="comparison-row">
              <Link href={`/compare/${c.id}`} className="text-sky-400 underline underline-offset-2 hover:text-sky-300">
                {c.title ?? c.prompt.slice(0, 80)}
              </Link>{" "}
              <span className="text-zinc-400">
                {c.sides[0].label} vs {c.sides[1].label} · {new Date(c.createdAt).toLocaleString()}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ComparePage() {
  return <PageFrame>{(token) => <Form token={token} />}</PageFrame>;
}
