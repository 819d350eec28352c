"use client";
/**
 * Profile, cwd and start options; Connect (start + initialize + session/new,
 * for newcomers), Start agent (raw: nothing sent), Stop; the agent's status
 * and its last error.
 */
import { useEffect, useState } from "react";
import { optionControls, optionsPayload, type OptionValues } from "@/lib/contracts/agent-options";
import type { RelayError } from "@/lib/contracts/wire";
import { descriptorOf, protocolOf } from "@/lib/protocol/protocols";
import { AuthControls } from "./answer/AuthControls";
import { AgentErrorNotice } from "./compose/AgentErrorNotice";
import { AgentOptions } from "./compose/AgentOptions";
import { advertisesDefaults, capabilitiesOf, useConnectChoices } from "./compose/ConnectSettings";
import { PROTOCOL_VIEWS } from "./protocol-views";
import { CredentialsNote } from "./profiles/CredentialsNote";
import type { AgentStatus } from "./state/session-store";
import { PROFILE_UI_KEY } from "./state/tabs-store";
import { useSession, useSessionStore, useTabState } from "./state/use-session";

function StatusLine({ status }: { status: AgentStatus }) {
  switch (status.state) {
    case "not-started":
      return <span className="text-zinc-400">not started</span>;
    case "starting":
      return <span className="text-amber-300">starting…</span>;
    case "running":
      return (
        <span className="flex flex-col gap-0.5">
          <span className="text-emerald-300">
            running <span className="text-zinc-400">· pid {status.agent.pid}</span>
          </span>
          <code className="break-all text-zinc-300" title="command">
            {[status.agent.command, ...status.agent.args].join(" ")}
          </code>
          <code className="break-all text-zinc-500" title="cwd">
            {status.agent.cwd}
          </code>
        </span>
      );
    case "exited": {
      const how =
        status.code === null && status.signal === null
          ? "while this page was away"
          : status.signal
            ? `signal ${status.signal}`
            : `code ${status.code}`;
      return (
        <span className="text-zinc-300">
          exited <span className={status.code === 0 ? "text-zinc-400" : "text-red-300"}>({how})</span>
        </span>
      );
    }
  }
}

const inputClass =
  "w-full rounded border border-zinc-700 bg-zinc-900 px-2 py-1 text-xs text-zinc-100 placeholder:text-zinc-600 focus:border-sky-500 focus:outline-none";

interface Props {
  /** Connect was pressed: the prompt is where to go next. */
  onConnect?: () => void;
  /** A raw start: the next step is composing initialize by hand. */
  onStart?: () => void;
}

export function AgentControls({ onConnect, onStart }: Props) {
  const store = useSessionStore();
  const info = useSession((s) => s.info);
  const status = useSession((s) => s.agent);
  const agentError = useSession((s) => s.agentError);
  const connected = useSession((s) => s.connection === "connected");
  const handshakeStep = useSession((s) => s.handshake?.step);
  const [profile, setProfile] = useTabState<string>(PROFILE_UI_KEY, "");
  const [cwd, setCwd] = useTabState("agent.cwd", "");
  const [options, setOptions] = useTabState<Record<string, OptionValues>>("agent.options", {});
  const [stopError, setStopError] = useState<RelayError>();
  const chosen = profile || info?.defaultProfile || "";
  const profileInfo = info?.profiles.find((p) => p.name === chosen);
  const Settings = PROTOCOL_VIEWS[protocolOf(profileInfo)].connectSettings;
  const optionValues = options[chosen] ?? {};
  const payload = optionsPayload(optionControls(profileInfo), optionValues);
  const [choices, setChoices, choicesReady] = useConnectChoices(profileInfo);
  useEffect(() => store.chooseProfile(chosen || undefined), [store, chosen]);
  const busy = status.state === "starting" || status.state === "running";
  // A replay still recording is listed (the page asked for it) but cannot start: the note says why.
  const startable = !profileInfo?.unavailable;
  const connecting = handshakeStep !== undefined && handshakeStep !== "ready" && handshakeStep !== "failed";

  const start = () => {
    setStopError(undefined);
    onStart?.();
    void store.startAgent(chosen || undefined, cwd.trim() || undefined, { options: payload });
  };
  // Enabled once the relay has named its profiles: what Connect advertises, and whether a warm agent
  // (initialized with the profile's defaults) will do, depend on the profile.
  const connect = () => {
    setStopError(undefined);
    onConnect?.();
    // The cwd goes to session/new only: a start without cwd and options can take a warm agent.
    void store.connectAgent({
      profile: chosen || undefined,
      options: payload,
      cwd,
      clientCapabilities: capabilitiesOf(choices),
      authenticateFirst: choices.authenticateFirst,
      poolable: advertisesDefaults(profileInfo, choices),
      protocolVersion: choices.v2 ? 2 : 1,
    });
  };
  const stop = async () => setStopError(await store.stopAgent());

  return (
    <section className="flex flex-col gap-2 border-b border-zinc-800 p-3" aria-label="Agent">
      <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Agent</h2>
      <label className="flex items-center gap-2 text-xs text-zinc-400">
        <span className="w-14 shrink-0">profile</span>
        <select
          data-testid="profile-select"
          className={inputClass}
          value={chosen}
          onChange={(e) => setProfile(e.target.value)}
          disabled={busy || !info}
        >
          {/* Replays are picked on the Transcripts page: only the shipped demo and the chosen one are listed, by title. */}
          {(info?.profiles ?? [])
            .filter((p) => !p.replayOf || p.demo || p.name === chosen)
            .map((p) => (
              <option key={p.name} value={p.name}>
                {p.replayOf
                  ? `replay — “${p.replayOf.title}”${p.demo ? " (a recording, not a live agent)" : ""}`
                  : `${p.name} — ${[p.command.split("/").at(-1), ...p.args].join(" ")}`}
              </option>
            ))}
        </select>
      </label>
      {profileInfo?.description && !profileInfo.demo ? (
        <p data-testid="profile-description" className="text-xs text-zinc-500">
          {profileInfo.description}
        </p>
      ) : null}
      <CredentialsNote profile={profileInfo} />
      <label className="flex items-center gap-2 text-xs text-zinc-400">
        <span className="w-14 shrink-0">cwd</span>
        <input
          data-testid="cwd-input"
          className={`${inputClass} font-mono`}
          value={cwd}
          onChange={(e) => setCwd(e.target.value)}
          placeholder={info?.workspaceRoots[0] ?? "workspace root"}
          disabled={busy}
          spellCheck={false}
          title="Connect: the session's cwd (session/new). Start agent: the agent's working directory."
        />
      </label>
      <AgentOptions
        profile={profileInfo}
        values={optionValues}
        onChange={(v) => setOptions({ ...options, [chosen]: v })}
        disabled={busy}
      />
      <Settings profile={profileInfo} choices={choices} onChange={setChoices} disabled={busy || !choicesReady} />
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          data-testid="connect"
          onClick={connect}
          disabled={!connected || !info || busy || connecting || !startable}
          title={
            info
              ? "Start the agent, initialize it, open a session, and prompt"
              : "Waiting for the relay to name its profiles and workspace"
          }
          className="rounded bg-sky-600 px-3 py-1 text-xs font-medium text-white hover:bg-sky-500 disabled:cursor-not-allowed disabled:bg-zinc-800 disabled:text-zinc-500"
        >
          Connect
        </button>
        <button
          type="button"
          data-testid="start-agent"
          onClick={start}
          disabled={!connected || busy || !startable}
          title="Only start the agent process: send initialize and the rest yourself"
          className="rounded bg-emerald-600 px-3 py-1 text-xs font-medium text-white hover:bg-emerald-500 disabled:cursor-not-allowed disabled:bg-zinc-800 disabled:text-zinc-500"
        >
          Start agent
        </button>
        <button
          type="button"
          data-testid="stop-agent"
          onClick={() => void stop()}
          disabled={!connected || status.state !== "running"}
          className="rounded bg-zinc-700 px-3 py-1 text-xs font-medium text-zinc-100 hover:bg-red-600 disabled:cursor-not-allowed disabled:bg-zinc-800 disabled:text-zinc-500"
        >
          Stop agent
        </button>
      </div>
      <p data-testid="start-help" className="text-[11px] leading-snug text-zinc-500">
        <span className="text-zinc-400">Connect</span> starts the agent and does the handshake (
        {descriptorOf(protocolOf(profileInfo)).connectSteps}
        ): then you prompt. <span className="text-zinc-400">Start agent</span> only starts the process; you send every
        frame yourself.
      </p>
      <div data-testid="agent-status" data-status={status.state} className="text-xs">
        <StatusLine status={status} />
      </div>
      <AuthControls />
      {agentError ? <AgentErrorNotice error={agentError} /> : null}
      {stopError ? (
        <p role="alert" className="break-words rounded bg-red-950/60 px-2 py-1 text-xs text-red-300">
          {stopError.message}
        </p>
      ) : null}
    </section>
  );
}
