"use client";
/**
 * Re-run: the recorded client side sent again to a live agent of a chosen
 * profile (socket `transcript:rerun`), with progress, then the result. The
 * recorded MCP servers are command lines from whoever wrote the transcript:
 * shown, and sent only when the user ticks the box.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import type { Frame } from "@/lib/protocol/frame";
import { parseIgnorePath } from "@/lib/contracts/ignore-paths";
import { recordedMcpServers, type RecordedMcpServer } from "@/lib/features/library/rerun";
import type { ProfileSummary, RelayError, RerunResult } from "@/lib/contracts/wire";
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
  /** The transcript's frames as loaded so far, and whether that is all of them. */
  frames: readonly Frame[];
  complete: boolean;
  /** The recorded profile: preselected when the relay has it. */
  recordedProfile: string;
  onClose: () => void;
}

const control =
  "rounded border border-zinc-700 bg-zinc-900 px-2 py-0.5 text-xs text-zinc-100 focus:border-sky-500 focus:outline-none";

export function RerunPanel({ token, id, frames, complete, recordedProfile, onClose }: Props) {
  const [profiles, setProfiles] = useState<ProfileSummary[]>();
  const [sendMcp, setSendMcp] = useState(false);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the list only grows while loading
  const servers = useMemo(() => recordedMcpServers(frames), [frames, frames.length]);
  const [loadError, setLoadError] = useState<string>();
  const [profile, setProfile] = useState("");
  const [run, setRun] = useState<Run>();
  const [ignoreText, setIgnoreText] = useState("");
  const ignore = useMemo(() => parseIgnoreList(ignoreText), [ignoreText]);
  const abort = useRef<AbortController>(null);

  useEffect(() => {
    api(token)
      .info(recordedProfile)
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
      {
        id,
        profile,
        recordedMcpServers: sendMcp && servers.length > 0,
        ...(ignore.paths.length ? { ignore: ignore.paths } : {}),
      },
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
          disabled={!profile || running || !complete || ignore.errors.length > 0}
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
      <IgnorePaths text={ignoreText} onChange={setIgnoreText} errors={ignore.errors} disabled={running} />
      <McpServers servers={servers} send={sendMcp} onSend={setSendMcp} disabled={running} />
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

/** At most as many paths as the relay accepts (lib/contracts/wire.ts). */
const MAX_IGNORE_PATHS = 100;

/** The user's ignore paths, one per line or comma-separated, with what is wrong with each bad one. */
function parseIgnoreList(text: string): { paths: string[]; errors: string[] } {
  const paths = text
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const errors = paths.filter((p) => !parseIgnorePath(p)).map((p) => `not a dot path: ${p.slice(0, 80)}`);
  if (paths.length > MAX_IGNORE_PATHS) errors.push(`at most ${MAX_IGNORE_PATHS} paths`);
  return { paths, errors };
}

function IgnorePaths(props: { text: string; onChange: (text: string) => void; errors: string[]; disabled: boolean }) {
  const { text, onChange, errors, disabled } = props;
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-start gap-2 text-zinc-400">
        <span className="pt-0.5">Ignore paths</span>
        <textarea
          data-testid="rerun-ignore"
          rows={1}
          value={text}
          disabled={disabled}
          aria-invalid={errors.length > 0}
          placeholder="result._meta.x, params.update.*.id, **.timestamp"
          onChange={(e) => onChange(e.target.value)}
          className={`${control} min-w-[24rem] flex-1 font-mono`}
        />
      </label>
      {errors.length > 0 ? (
        <ul data-testid="rerun-ignore-error" role="alert" className="text-red-300">
          {errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      ) : (
        <p className="text-zinc-500">
          Left out of the comparison, one per line or comma-separated: <code>*</code> any one key, <code>**</code> any
          depth.
        </p>
      )}
    </div>
  );
}

/** An argument as the user should read it: quoted when it has spaces or quotes. */
const shellWord = (arg: string) => (arg === "" || /[\s"'\\$`]/.test(arg) ? JSON.stringify(arg) : arg);

function McpServers(props: {
  servers: RecordedMcpServer[];
  send: boolean;
  onSend: (send: boolean) => void;
  disabled: boolean;
}) {
  const { servers, send, onSend, disabled } = props;
  if (servers.length === 0) return null;
  return (
    <div
      data-testid="rerun-mcp"
      className="rounded border border-amber-800/60 bg-amber-950/20 px-2 py-1.5 text-zinc-300"
    >
      <p>
        The recording asks the agent to start {servers.length} MCP server{servers.length > 1 ? "s" : ""}. None is sent
        by default: the re-run sends <code>mcpServers: []</code>. A transcript can come from anyone, and the agent runs
        these commands on this machine.
      </p>
      <ul className="my-1 list-disc pl-5 font-mono text-[11px] text-zinc-200">
        {servers.map((s, i) => (
          <li key={i}>
            {s.name}:{" "}
            {s.command !== undefined ? [s.command, ...s.args].map(shellWord).join(" ") : (s.url ?? "(no command)")}
            {s.env.length ? ` · env ${s.env.join(", ")}` : ""}
            {s.headers.length ? ` · headers ${s.headers.join(", ")}` : ""}
            <span className="text-zinc-500"> ({s.method})</span>
          </li>
        ))}
      </ul>
      <label className="flex items-center gap-1.5">
        <input
          type="checkbox"
          data-testid="rerun-mcp-confirm"
          checked={send}
          disabled={disabled}
          onChange={(e) => onSend(e.target.checked)}
        />
        I have read these commands and want the agent to start them
      </label>
    </div>
  );
}
