"use client";
/**
 * Above the conversation: which session (a picker when there are several), its state, its config options,
 * mode and (legacy) model as selectors (lib/folds/config-controls.ts), and Cancel: only for a turn the prompt
 * box does not offer to cancel (another session's, or one sent when no prompt box shows); one Cancel per turn.
 */
import { useMemo, useState } from "react";
import {
  sessionControls,
  setConfigRequest,
  setModeRequest,
  setModelRequest,
  type Choice,
  type ControlRequest,
} from "@/lib/folds/config-controls";
import { agentErrorText } from "@/lib/features/connect/handshake";
import { NO_SESSION, type SessionState, type SessionViewState } from "@/lib/folds/session-view";
import { useSession, useSessionStore } from "../state/use-session";
import { PROMPT_RUNNING_SESSION, useTabSignal } from "../state/tab-signal";
import { AGENT_METHODS } from "@/lib/protocol/methods";
import { plural } from "../transcripts/format";

const short = (id: string) =>
  id === NO_SESSION ? "(no session id)" : id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;

function CancelButton({ sessionId, requested }: { sessionId: string; requested: boolean }) {
  const store = useSessionStore();
  const [error, setError] = useState<string>();
  const cancel = async () => {
    setError(undefined);
    // A notification: the turn ends when the agent answers the prompt (stopReason "cancelled").
    const res = await store.send({ jsonrpc: "2.0", method: AGENT_METHODS.session_cancel, params: { sessionId } });
    if (!res.ok) setError(res.error?.message);
  };
  return (
    <>
      <button
        type="button"
        data-testid="cancel-turn"
        onClick={() => void cancel()}
        className="rounded border border-red-800/70 bg-red-950/40 px-2 py-0.5 text-[11px] font-medium text-red-200 hover:border-red-500 hover:bg-red-900/50"
        title="Send session/cancel for the running turn"
      >
        {requested ? "Cancel again" : "Cancel turn"}
      </button>
      {error ? <span className="text-[11px] text-red-300">{error}</span> : null}
    </>
  );
}

const selectClass =
  "max-w-[11rem] rounded border border-zinc-700 bg-zinc-900 px-1 py-0.5 text-[11px] text-zinc-200 focus:border-sky-500 focus:outline-none disabled:opacity-50";

function Options({ choices, current }: { choices: Choice[]; current?: string }) {
  const groups = new Map<string | undefined, Choice[]>();
  for (const c of choices) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  const opt = (c: Choice) => (
    <option key={`${c.group ?? ""}:${c.value}`} value={c.value} title={c.description}>
      {c.name}
    </option>
  );
  return (
    <>
      {current !== undefined && !choices.some((c) => c.value === current) ? (
        <option value={current}>{current} (not listed)</option>
      ) : null}
      {[...groups].map(([group, list]) =>
        group === undefined ? (
          list.map(opt)
        ) : (
          <optgroup key={group} label={group}>
            {list.map(opt)}
          </optgroup>
        ),
      )}
    </>
  );
}

interface ChoiceProps {
  testId: string;
  selectTestId: string;
  configId?: string;
  name: string;
  title: string;
  choices: Choice[];
  current?: string;
  disabled: boolean;
  onChoose: (value: string) => void;
}

/** A setting the agent offers as a choice: its name (the method in its tooltip) and a select that sends a change. */
function ChoiceControl(props: ChoiceProps) {
  return (
    <label className="flex items-center gap-1" data-testid={props.testId} data-config-id={props.configId}>
      <span className="text-zinc-500" title={props.title}>
        {props.name}
      </span>
      <select
        data-testid={props.selectTestId}
        className={selectClass}
        value={props.current ?? ""}
        disabled={props.disabled}
        onChange={(e) => props.onChoose(e.target.value)}
      >
        {props.current === undefined ? <option value="">(none)</option> : null}
        <Options choices={props.choices} current={props.current} />
      </select>
    </label>
  );
}

/**
 * The mode or the legacy model: a select of the agent's choices, or the current one as text (`shown`,
 * named `shownName`) when the agent names it but offers none.
 */
function ChoiceOrValue({
  control,
  shownName,
  shown,
  ...props
}: Omit<ChoiceProps, "choices" | "current"> & {
  control?: { choices: Choice[]; current?: string };
  shownName: string;
  shown?: string;
}) {
  if (control) return <ChoiceControl {...props} choices={control.choices} current={control.current} />;
  return shown ? (
    <span className="text-zinc-500">
      {shownName} <span className="text-zinc-300">{shown}</span>
    </span>
  ) : null;
}

/** The session's config options, mode and legacy model as selectors; read-only text when not live. */
function SessionSettings({ session, live }: { session: SessionState; live: boolean }) {
  const store = useSessionStore();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const controls = useMemo(
    () =>
      sessionControls({
        configOptions: session.configOptions,
        availableModes: session.availableModes,
        currentModeId: session.currentModeId,
        models: session.models,
      }),
    [session.configOptions, session.availableModes, session.currentModeId, session.models],
  );
  const send = async (key: string, req: ControlRequest) => {
    setBusy(key);
    setError(undefined);
    const out = await store.request(req.method, req.params);
    setBusy(undefined);
    if (out.kind === "error") setError(`${req.method}: ${agentErrorText(out.error)}`);
    else if (out.kind === "failed") setError(`${req.method}: ${out.message}`);
  };
  const id = session.sessionId;
  const off = !live || busy !== undefined;
  return (
    <span className="flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="session-settings">
      <ChoiceOrValue
        control={controls.modes}
        shownName="mode"
        shown={session.currentModeId}
        testId="mode-control"
        selectTestId="mode-select"
        name="mode"
        title="session/set_mode; current_mode_update keeps it current"
        disabled={off}
        onChoose={(value) => void send("mode", setModeRequest(id, value))}
      />
      {controls.config.map((c) =>
        c.kind === "select" ? (
          <ChoiceControl
            key={c.id}
            testId="config-control"
            selectTestId={`config-select-${c.id}`}
            configId={c.id}
            name={c.name}
            title={`${c.description ?? c.id} (session/set_config_option; config_option_update keeps it current)`}
            choices={c.choices}
            current={c.current}
            disabled={off}
            onChoose={(value) => void send(c.id, setConfigRequest(id, c, value))}
          />
        ) : (
          <label
            key={c.id}
            className="flex items-center gap-1"
            data-testid="config-control"
            data-config-id={c.id}
            title={`${c.description ?? c.id} (session/set_config_option, boolean)`}
          >
            <input
              type="checkbox"
              data-testid={`config-boolean-${c.id}`}
              checked={c.current}
              disabled={off}
              onChange={(e) => void send(c.id, setConfigRequest(id, c, e.target.checked))}
            />
            <span className="text-zinc-400">{c.name}</span>
          </label>
        ),
      )}
      <ChoiceOrValue
        control={controls.models}
        shownName="model"
        shown={session.models?.currentModelId}
        testId="legacy-model-control"
        selectTestId="legacy-model-select"
        name="model (legacy)"
        title="session/set_model: removed from the spec, still answered by many agents"
        disabled={off}
        onChoose={(value) => void send("model", setModelRequest(id, value))}
      />
      {controls.skipped.length ? (
        <span className="text-amber-300" title={controls.skipped.join("\n")} data-testid="config-skipped">
          {controls.skipped.length} option{controls.skipped.length === 1 ? "" : "s"} not shown
        </span>
      ) : null}
      {error ? (
        <span className="max-w-full break-words text-red-300" data-testid="session-settings-error">
          {error.length > 300 ? `${error.slice(0, 300)}…` : error}
        </span>
      ) : null}
    </span>
  );
}

interface Props {
  state: SessionViewState;
  session: SessionState;
  onPick: (sessionId: string) => void;
}

export function SessionHeader({ state, session, onPick }: Props) {
  // A read-only view (transcript, share page, watch link) has no live controls.
  const store = useSessionStore();
  const live = !store.isOffline && !store.watching;
  const running = useSession((s) => s.agent.state === "running") && live;
  const last = session.turns.at(-1);
  const promptBoxCancels = useTabSignal(PROMPT_RUNNING_SESSION) === session.sessionId;
  // A subagent's session is shown nested under its parent's tool call, not picked on its own.
  const picked = state.order.filter(
    (id) => id === session.sessionId || state.sessions[id]?.parentSessionId === undefined,
  );
  return (
    <div
      data-testid="session-header"
      className="flex min-h-9 shrink-0 flex-wrap items-center gap-x-3 gap-y-1 border-b border-zinc-800 bg-zinc-900/40 px-3 py-1.5 text-[11px]"
    >
      {picked.length > 1 ? (
        <select
          data-testid="session-picker"
          value={session.sessionId}
          onChange={(e) => onPick(e.target.value)}
          className="rounded border border-zinc-700 bg-zinc-900 px-1.5 py-0.5 font-mono text-[11px] text-zinc-200 focus:border-sky-500 focus:outline-none"
        >
          {picked.map((id, i) => (
            <option key={id} value={id}>
              session {i + 1} · {short(id)} · {plural(state.sessions[id]?.turns.length ?? 0, "turn")}
            </option>
          ))}
        </select>
      ) : (
        <span className="font-mono text-zinc-300" title={session.sessionId}>
          session {short(session.sessionId)}
        </span>
      )}
      {session.info.title ? <span className="truncate text-zinc-200">“{session.info.title}”</span> : null}
      <span className="text-zinc-500">
        {session.turns.length} turn{session.turns.length === 1 ? "" : "s"}
      </span>
      <SessionSettings session={session} live={running} />
      {session.unknown.length ? <span className="text-amber-300">{session.unknown.length} unknown</span> : null}
      <span className="ml-auto flex items-center gap-2">
        {last && !last.ended && running && !promptBoxCancels ? (
          <CancelButton sessionId={session.sessionId} requested={!!last.cancelRequested} />
        ) : null}
      </span>
    </div>
  );
}
