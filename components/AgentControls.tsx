"use client";
/**
 * The connection strip (docs/design.md#layout): profile, Connect (start + initialize + session/new,
 * for newcomers), Start agent (raw: nothing sent), Stop, the agent's status and what it negotiated,
 * and the watch link, on one line. The settings used once per connection (cwd,
 * start options, what Connect advertises) show on a second row while no agent runs, and fold behind
 * "Options" once one does. The agent's last error shows under the strip.
 */
import { useEffect, useMemo, useState } from "react";
import { optionControls, optionsPayload, type OptionValues } from "@/lib/contracts/agent-options";
import type { RelayError } from "@/lib/contracts/wire";
import { descriptorOf, protocolOf } from "@/lib/protocol/protocols";
import { agentCapabilities, EMPTY_FACTS, negotiatedVersion, type AgentCapabilitiesView } from "@/lib/folds/agent-facts";
import { AuthControls } from "./answer/AuthControls";
import { AgentErrorNotice } from "./compose/AgentErrorNotice";
import { AgentOptions } from "./compose/AgentOptions";
import { connectDetail } from "./compose/ConnectPanel";
import { advertisesDefaults, capabilitiesOf, useConnectChoices } from "./compose/ConnectSettings";
import { PROTOCOL_VIEWS } from "./protocol-views";
import { CredentialsNote } from "./profiles/CredentialsNote";
import type { AgentStatus } from "./state/snapshot";
import { PROFILE_UI_KEY } from "./state/tabs-store";
import { useSession, useSessionStore, useTabState } from "./state/use-session";
import { WatchLinkButton } from "./watch/WatchLinkButton";

function StatusLine({ status }: { status: AgentStatus }) {
  switch (status.state) {
    case "not-started":
      return <span className="text-zinc-400">not started</span>;
    case "starting":
      return <span className="text-amber-300">starting…</span>;
    case "running":
      return (
        <span
          className="flex min-w-0 items-center gap-1.5"
          title={`${[status.agent.command, ...status.agent.args].join(" ")}\ncwd ${status.agent.cwd}`}
        >
          <span aria-hidden="true" className="h-2 w-2 shrink-0 rounded-full bg-emerald-400" />
          <span className="text-emerald-300">running</span>
          <span className="shrink-0 text-zinc-400">pid {status.agent.pid}</span>
          <code className="min-w-0 max-w-[14rem] truncate text-zinc-300">
            {[status.agent.command.split("/").at(-1), ...status.agent.args].join(" ")}
          </code>
          <code className="min-w-0 max-w-[16rem] truncate text-zinc-500">{status.agent.cwd}</code>
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

/** What the agent advertises, in words (every name in the tooltip; the session header names the session). */
export function capabilityWords(caps: AgentCapabilitiesView | undefined): string[] {
  if (!caps) return [];
  return [
    caps.loadSession ? "load" : undefined,
    ...caps.session.filter((k) => k !== "prompt" && k !== "mcp"),
    caps.prompt.image ? "image" : undefined,
    caps.prompt.audio ? "audio" : undefined,
    caps.prompt.embeddedContext ? "context" : undefined,
    caps.mcp.http ? "mcp http" : undefined,
    caps.mcp.sse ? "mcp sse" : undefined,
    caps.logout ? "logout" : undefined,
  ].filter((w): w is string => w !== undefined);
}

/** A finished Connect, in a few words: the protocol version, what the agent advertises, what else Connect did. */
function Negotiated() {
  const running = useSession((s) => s.agent.state === "running");
  const handshake = useSession((s) => s.handshake);
  const version = useSession((s) => negotiatedVersion(s.facts));
  const initialize = useSession((s) => s.facts.initialize);
  const words = useMemo(() => capabilityWords(agentCapabilities({ ...EMPTY_FACTS, initialize })), [initialize]);
  if (!running || handshake?.step !== "ready") return null;
  const detail = connectDetail(handshake, false);
  return (
    <span
      data-testid="connect-status"
      data-step={handshake.step}
      className="flex min-w-0 items-center gap-1.5 text-[11px] text-zinc-400"
    >
      {version !== undefined ? (
        <code
          data-testid="negotiated-version"
          title="The protocol version the agent answered in initialize"
          className={version === 2 ? "text-fuchsia-300" : "text-zinc-300"}
        >
          v{version}
        </code>
      ) : null}
      {/* Not the session Connect opened: the session (thread) header above the conversation names it. */}
      {words.length ? (
        <span
          data-testid="capabilities-summary"
          className="min-w-0 truncate"
          title={`The agent advertises: ${words.join(", ")}`}
        >
          {words.join(" · ")}
        </span>
      ) : null}
      {detail ? (
        <span data-testid="connect-detail" className="min-w-0 truncate text-zinc-500" title={detail}>
          {detail}
        </span>
      ) : null}
    </span>
  );
}

const inputClass =
  "w-full rounded border border-zinc-700 bg-zinc-900 px-2 py-1 text-xs text-zinc-100 placeholder:text-zinc-600 focus:border-sky-500 focus:outline-none";

interface Props {
  /** A raw start: the next step is composing initialize by hand. */
  onStart?: () => void;
}

export function AgentControls({ onStart }: Props) {
  const store = useSessionStore();
  const info = useSession((s) => s.info);
  const status = useSession((s) => s.agent);
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

  // Settings matter before a start; once an agent runs they fold away (disabled anyway) unless asked for.
  const [optionsOpen, setOptionsOpen] = useState<boolean>();
  const showOptions = optionsOpen ?? !busy;

  return (
    <section
      className="shrink-0 border-b border-zinc-800 bg-zinc-900/40 text-xs"
      aria-label="Agent"
      data-testid="agent-bar"
    >
      <div className="flex min-h-10 items-center gap-x-3 px-3 py-1">
        <label className="flex shrink-0 items-center gap-1.5 text-zinc-400">
          <span className="sr-only">profile</span>
          <select
            data-testid="profile-select"
            aria-label="profile"
            className={`${inputClass.replace("w-full", "w-56")}`}
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
        <div className="flex shrink-0 items-center gap-1.5">
          <button
            type="button"
            data-testid="connect"
            onClick={connect}
            disabled={!connected || !info || busy || connecting || !startable}
            title={
              info
                ? `Start the agent and do the handshake (${descriptorOf(protocolOf(profileInfo)).connectSteps}), then prompt`
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
        <div className="flex min-w-0 flex-1 items-center gap-3 overflow-hidden">
          <div data-testid="agent-status" data-status={status.state} className="flex min-w-0 shrink items-center">
            <StatusLine status={status} />
          </div>
          <Negotiated />
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <WatchLinkButton />
          <button
            type="button"
            data-testid="agent-options-toggle"
            aria-expanded={showOptions}
            aria-controls="agent-options"
            onClick={() => setOptionsOpen(!showOptions)}
            className="rounded px-1.5 py-0.5 text-[11px] text-zinc-400 hover:bg-zinc-800 hover:text-zinc-200"
          >
            Options {showOptions ? "▴" : "▾"}
          </button>
        </div>
      </div>
      {showOptions ? (
        <div
          id="agent-options"
          data-testid="agent-options"
          className="flex max-h-[40vh] flex-wrap items-start gap-x-6 gap-y-2 overflow-y-auto border-t border-zinc-800/70 px-3 py-2"
        >
          <div className="flex w-[26rem] max-w-full flex-col gap-1.5">
            <label className="flex items-center gap-2 text-zinc-400">
              <span className="w-8 shrink-0">cwd</span>
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
            {profileInfo?.description && !profileInfo.demo ? (
              <p data-testid="profile-description" className="text-zinc-500">
                {profileInfo.description}
              </p>
            ) : null}
            <CredentialsNote profile={profileInfo} />
            <p data-testid="start-help" className="text-[11px] leading-snug text-zinc-500">
              <span className="text-zinc-400">Connect</span> starts the agent and does the handshake (
              {descriptorOf(protocolOf(profileInfo)).connectSteps}
              ): then you prompt. <span className="text-zinc-400">Start agent</span> only starts the process; you send
              every frame yourself.
            </p>
          </div>
          <div className="w-[22rem] max-w-full">
            <AgentOptions
              profile={profileInfo}
              values={optionValues}
              onChange={(v) => setOptions({ ...options, [chosen]: v })}
              disabled={busy}
            />
          </div>
          <div className="w-[26rem] max-w-full">
            <Settings profile={profileInfo} choices={choices} onChange={setChoices} disabled={busy || !choicesReady} />
          </div>
        </div>
      ) : null}
      <AgentNotices stopError={stopError} />
    </section>
  );
}

/** Sign-in to the agent, its last error, a failed stop: under the strip, only when there is something. */
function AgentNotices({ stopError }: { stopError: RelayError | undefined }) {
  const agentError = useSession((s) => s.agentError);
  return (
    <div className="flex flex-col gap-1.5 px-3 empty:hidden [&>*:last-child]:mb-2">
      <AuthControls />
      {agentError ? <AgentErrorNotice error={agentError} /> : null}
      {stopError ? (
        <p role="alert" className="break-words rounded bg-red-950/60 px-2 py-1 text-xs text-red-300">
          {stopError.message}
        </p>
      ) : null}
    </div>
  );
}
