"use client";
/**
 * Re-run: the recorded client side sent again to a live agent of a chosen
 * profile (socket `transcript:rerun`), with progress, then the result.
 */
import { useEffect, useRef, useState } from "react";
import type { ProfileSummary, RelayError, RerunResult } from "@/lib/wire";
import { api } from "./api";
import { relayCall, type RelayProgress } from "./relay-call";
import { RerunResultView } from "./RerunResultView";

type Run =
  | { state: "running"; profile: string; progress: RelayProgress; startedAt: number }
  | { state: "done"; profile: string; result: RerunResult }
  | { state: "failed"; profile: string; error: RelayError };

interface Props {
  token: string;
  id: string;
  /** The recorded profile: preselected when the relay has it. */
  recordedProfile: string;
  onClose: () => void;
}

const control =
  "rounded border border-zinc-700 bg-zinc-900 px-2 py-0.5 text-xs text-zinc-100 focus:border-sky-500 focus:outline-none";

export function RerunPanel({ token, id, recordedProfile, onClose }: Props) {
  const [profiles, setProfiles] = useState<ProfileSummary[]>();
  const [loadError, setLoadError] = useState<string>();
  const [profile, setProfile] = useState("");
  const [run, setRun] = useState<Run>();
  const abort = useRef<AbortController>(null);

  useEffect(() => {
    api(token)
      .info()
      .then((info) => {
        setProfiles(info.profiles);
        const usable = (name: string) => info.profiles.some((p) => p.name === name && p.available);
        setProfile(usable(recordedProfile) ? recordedProfile : info.defaultProfile);
      })
      .catch((err: Error) => setLoadError(err.message));
  }, [token, recordedProfile]);

  useEffect(() => () => abort.current?.abort(), []);

  const start = async () => {
    abort.current = new AbortController();
    const startedAt = Date.now();
    setRun({ state: "running", profile, progress: { frames: 0 }, startedAt });
    const res = await relayCall<RerunResult>(
      token,
      "transcript:rerun",
      { id, profile },
      (progress) => setRun((r) => (r?.state === "running" ? { ...r, progress } : r)),
      abort.current.signal,
    );
    setRun(res.ok ? { state: "done", profile, result: res } : { state: "failed", profile, error: res.error });
  };

  const running = run?.state === "running";
  return (
    <section
      data-testid="rerun-panel"
      aria-label="Re-run"
      className="flex max-h-[45vh] flex-col gap-2 overflow-y-auto border-b border-zinc-800 bg-zinc-900/30 px-3 py-2 text-xs"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold uppercase tracking-wider text-zinc-400">Re-run against</h3>
        <select
          data-testid="rerun-profile"
          aria-label="Profile"
          className={control}
          value={profile}
          disabled={!profiles || running}
          onChange={(e) => setProfile(e.target.value)}
        >
          {(profiles ?? []).map((p) => (
            <option key={p.name} value={p.name} disabled={!p.available}>
              {p.name}
              {p.available ? "" : " (missing)"}
            </option>
          ))}
        </select>
        <button
          type="button"
          data-testid="rerun-start"
          disabled={!profile || running}
          onClick={() => void start()}
          className="rounded bg-sky-600 px-2.5 py-0.5 text-white hover:bg-sky-500 disabled:opacity-40"
        >
          {running ? "Running…" : "Re-run"}
        </button>
        {running ? (
          <button
            type="button"
            onClick={() => abort.current?.abort()}
            className="rounded px-2 py-0.5 text-zinc-400 hover:bg-zinc-800"
          >
            Stop waiting
          </button>
        ) : null}
        <span className="text-zinc-500">
          Sends the recorded client side to a fresh agent and compares what it answers.
        </span>
        <button
          type="button"
          aria-label="Close re-run"
          onClick={onClose}
          className="ml-auto rounded px-1.5 text-zinc-500 hover:bg-zinc-800 hover:text-zinc-200"
        >
          ✕
        </button>
      </div>
      {loadError ? <p className="text-red-300">Could not list profiles: {loadError}</p> : null}
      {run?.state === "running" ? (
        <p data-testid="rerun-progress" role="status" className="text-zinc-300">
          {run.progress.agent ? `Agent started (pid ${run.progress.agent.pid}); ` : "Starting the agent… "}
          {run.progress.frames} frames so far.
        </p>
      ) : null}
      {run?.state === "failed" ? (
        <p data-testid="rerun-error" role="alert" className="text-red-300">
          Re-run against {run.profile} failed ({run.error.code}): {run.error.message}
        </p>
      ) : null}
      {run?.state === "done" ? <RerunResultView result={run.result} /> : null}
    </section>
  );
}
