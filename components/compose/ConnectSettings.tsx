"use client";
/**
 * What Connect advertises in `initialize` (fs read/write, terminal, the
 * `_meta["terminal-auth"]` flag), defaulting to the profile's
 * `clientCapabilities` and kept per profile in localStorage; and whether to
 * authenticate before session/new: ACP's Connect settings. A profile speaking
 * Codex's app-server has none of these: its handshake is said instead
 * (components/protocol-views.ts picks which).
 */
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { DEFAULT_CLIENT_CAPABILITIES, TERMINAL_AUTH_META, withTerminalAuth } from "@/lib/protocol/client-capabilities";
import type { ProfileSummary } from "@/lib/contracts/wire";
import { descriptorOf, protocolOf } from "@/lib/protocol/protocols";
import { connectStorageKey } from "../state/protocol-choice";

export interface ConnectChoices {
  fsRead: boolean;
  fsWrite: boolean;
  terminal: boolean;
  terminalAuth: boolean;
  authenticateFirst: boolean;
  /** Ask for protocol version 2 (the v2 draft) instead of 1. */
  v2: boolean;
}

const storageKey = connectStorageKey;

const NOTHING_CHOSEN: ConnectChoices = {
  fsRead: false,
  fsWrite: false,
  terminal: false,
  terminalAuth: false,
  authenticateFirst: false,
  v2: false,
};

function defaults(profile: ProfileSummary | undefined): ConnectChoices {
  const caps = profile?.clientCapabilities ?? DEFAULT_CLIENT_CAPABILITIES;
  return {
    fsRead: caps.fs?.readTextFile === true,
    fsWrite: caps.fs?.writeTextFile === true,
    terminal: caps.terminal === true,
    terminalAuth: caps._meta?.[TERMINAL_AUTH_META] === true,
    authenticateFirst: false,
    v2: false,
  };
}

/** The profile's defaults, overridden by what this browser kept (`saved`, JSON). */
function withSaved(profile: ProfileSummary | undefined, saved: string | null): ConnectChoices {
  const base = defaults(profile);
  try {
    const kept: unknown = JSON.parse(saved ?? "null");
    if (typeof kept !== "object" || kept === null) return base;
    const out = { ...base };
    for (const k of Object.keys(base) as (keyof ConnectChoices)[]) {
      const v = (kept as Record<string, unknown>)[k];
      if (typeof v === "boolean") out[k] = v;
    }
    return out;
  } catch {
    return base;
  }
}

/** Whether the choices advertise what the profile does by default (what a warm agent was initialized with, in v1). */
export function advertisesDefaults(profile: ProfileSummary | undefined, c: ConnectChoices): boolean {
  const d = defaults(profile);
  return (
    !c.v2 &&
    c.fsRead === d.fsRead &&
    c.fsWrite === d.fsWrite &&
    c.terminal === d.terminal &&
    c.terminalAuth === d.terminalAuth
  );
}

export function capabilitiesOf(c: ConnectChoices): ClientCapabilities {
  return withTerminalAuth(
    { fs: { readTextFile: c.fsRead, writeTextFile: c.fsWrite }, terminal: c.terminal },
    c.terminalAuth,
  );
}

const changed = new Set<() => void>();
const subscribe = (listener: () => void) => {
  changed.add(listener);
  return () => void changed.delete(listener);
};

/**
 * The choices for a profile, a setter that keeps a change to them, and whether the profile is known yet
 * (before, there is nothing to keep a choice for). Read from localStorage on every render, not
 * copied into state, so no late load can overwrite a choice just made.
 */
export function useConnectChoices(
  profile: ProfileSummary | undefined,
): [ConnectChoices, (change: Partial<ConnectChoices>) => void, boolean] {
  const name = profile?.name;
  const saved = useSyncExternalStore(
    subscribe,
    () => (name ? localStorage.getItem(storageKey(name)) : null),
    () => null,
  );
  // Nothing is ticked before the profile is known: its defaults are not known either.
  const choices = useMemo(() => (name ? withSaved(profile, saved) : NOTHING_CHOSEN), [name, profile, saved]);
  // Merged into what is kept now, not into the rendered choices: two quick ticks must both stay.
  const set = useCallback(
    (change: Partial<ConnectChoices>) => {
      if (!name) return;
      const kept = withSaved(profile, localStorage.getItem(storageKey(name)));
      localStorage.setItem(storageKey(name), JSON.stringify({ ...kept, ...change }));
      for (const listener of changed) listener();
    },
    [name, profile],
  );
  return [choices, set, name !== undefined];
}

const isGemini = (p: ProfileSummary | undefined) =>
  p !== undefined && (p.name === "gemini" || p.command.split("/").at(-1) === "gemini");

const BOXES: { key: Exclude<keyof ConnectChoices, "v2">; label: string; title: string }[] = [
  {
    key: "fsRead",
    label: "fs read",
    title: "clientCapabilities.fs.readTextFile: the agent may ask the playground to read files",
  },
  {
    key: "fsWrite",
    label: "fs write",
    title: "clientCapabilities.fs.writeTextFile: the agent may ask the playground to write files",
  },
  {
    key: "terminal",
    label: "terminal",
    title: "clientCapabilities.terminal: the agent may run commands through the playground",
  },
  {
    key: "terminalAuth",
    label: "terminal-auth",
    title:
      '_meta["terminal-auth"]: agents then list their terminal login methods (shown as a command to run, with Retry)',
  },
  { key: "authenticateFirst", label: "authenticate first", title: "Choose an auth method before session/new" },
];

/** What a protocol's Connect settings take (components/protocol-views.ts picks them by protocol). */
export interface ConnectSettingsProps {
  profile: ProfileSummary | undefined;
  choices: ConnectChoices;
  onChange: (change: Partial<ConnectChoices>) => void;
  disabled?: boolean;
}

/** Codex's app-server client advertises no capabilities and asks for no version: nothing to choose. */
export function AppServerConnectNote({ profile }: ConnectSettingsProps) {
  const protocol = protocolOf(profile);
  return (
    <p data-testid="connect-settings" data-protocol={protocol} className="text-[11px] text-zinc-500">
      {descriptorOf(protocol).label}: Connect sends initialize (the playground&apos;s clientInfo), then initialized,
      then thread/start in the workspace; prompts are turns of that thread.
    </p>
  );
}

/** ACP's: the capabilities initialize advertises, authenticating first, the protocol version. */
export function ConnectSettings({ profile, choices, onChange, disabled }: ConnectSettingsProps) {
  const quirk = isGemini(profile) && (choices.fsRead || choices.fsWrite);
  return (
    <fieldset
      className="flex flex-col gap-1 text-[11px] text-zinc-400"
      data-testid="connect-settings"
      disabled={disabled}
    >
      <legend className="mb-0.5 text-zinc-500">Connect advertises</legend>
      <div className="flex flex-wrap gap-x-3 gap-y-0.5">
        {BOXES.map((b) => (
          <label key={b.key} className="flex items-center gap-1" title={b.title}>
            <input
              type="checkbox"
              data-testid={`cap-${b.key}`}
              checked={choices[b.key]}
              onChange={(e) => onChange({ [b.key]: e.target.checked })}
            />
            {b.label}
          </label>
        ))}
      </div>
      <label
        className="flex items-center gap-1"
        title="protocolVersion in initialize; the agent answers the one it speaks"
      >
        protocol
        <select
          data-testid="protocol-version"
          value={choices.v2 ? "2" : "1"}
          onChange={(e) => onChange({ v2: e.target.value === "2" })}
          className="rounded border border-zinc-700 bg-zinc-900 px-1 py-0.5 text-[11px] text-zinc-200"
        >
          <option value="1">v1 (stable)</option>
          <option value="2">v2 (draft)</option>
        </select>
        {choices.v2 ? (
          <span className="text-fuchsia-300">
            v2 draft: no fs or terminal capabilities, no warm agent; turns end on state_update
          </span>
        ) : null}
      </label>
      {quirk ? (
        <p data-testid="gemini-fs-quirk" className="text-amber-300">
          With fs capabilities Gemini cannot create a new file: it reads it first through fs/read_text_file and fails on
          &quot;not found&quot; (docs/gemini-quirks.md).
        </p>
      ) : null}
    </fieldset>
  );
}
