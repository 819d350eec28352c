"use client";
/**
 * Connect's auth question: the agent's `authMethods` by type, for the user to
 * choose. `agent`: authenticate. `env_var`: the variables it names, how to set
 * them for the profile, or values typed here (the agent restarts with them).
 * `terminal`: the exact login command to run on the relay's machine, then Retry.
 */
import { useState } from "react";
import { type AuthMethodView, checkUserEnv, terminalAuthCommand } from "@/lib/features/connect/auth-methods";
import type { AuthChoiceRequest } from "@/lib/features/connect/handshake";
import { useSession, useSessionStore } from "../state/use-session";
import { alert, button, input, primary } from "./ui";
import { AGENT_METHODS } from "@/lib/protocol/methods";

function EnvVarMethod({ method }: { method: Extract<AuthMethodView, { type: "env_var" }> }) {
  const store = useSessionStore();
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const restart = () => {
    const checked = checkUserEnv(method, values);
    if (!checked.ok) return setError(checked.error);
    setError(undefined);
    void store.reconnectWithEnv(method.id, checked.value);
  };
  const required = method.vars.filter((v) => !v.optional);
  return (
    <div className="flex flex-col gap-1">
      <p data-testid="env-missing">
        The agent needs {required.map((v) => v.name).join(", ") || "no required variable"}
        {required.length ? " and did not find them" : ""}. Set them for this profile in the server&apos;s environment,
        or in the profile&apos;s <code>env</code> in the config file, restart the server and Retry; or type them here
        (never recorded, never sent back to the page):
      </p>
      {method.vars.map((v) => (
        <label key={v.name} className="flex items-center gap-2">
          <code className="w-40 shrink-0 truncate" title={v.label}>
            {v.name}
            {v.optional ? "?" : ""}
          </code>
          <input
            data-testid="env-value"
            data-var={v.name}
            type={v.secret ? "password" : "text"}
            autoComplete="off"
            className={`${input} font-mono`}
            value={values[v.name] ?? ""}
            onChange={(e) => setValues({ ...values, [v.name]: e.target.value })}
          />
        </label>
      ))}
      {method.link ? (
        <a className="text-sky-300 underline" href={method.link} target="_blank" rel="noreferrer noopener">
          where to get it
        </a>
      ) : null}
      <div className="flex gap-2">
        <button type="button" data-testid="env-restart" className={button} onClick={restart}>
          Restart the agent with these values
        </button>
      </div>
      {error ? <p className={alert}>{error}</p> : null}
    </div>
  );
}

function TerminalMethod({ method }: { method: AuthMethodView }) {
  const agent = useSession((s) => (s.agent.state === "running" ? s.agent.agent : undefined));
  const [copied, setCopied] = useState(false);
  const command = terminalAuthCommand(method, agent ?? { command: "(agent command)", args: [] });
  if (!command) return null;
  const copy = async () => {
    await navigator.clipboard.writeText(command.line);
    setCopied(true);
  };
  return (
    <div className="flex flex-col gap-1">
      <p>
        No terminal on the relay (a pty would let this page run any command on the server): run this in a shell on the
        relay&apos;s machine, log in, then Retry.
      </p>
      <div className="flex items-start gap-2">
        <code data-testid="terminal-command" className="break-all rounded bg-zinc-900 px-2 py-1 text-zinc-200">
          {command.line}
        </code>
        <button type="button" data-testid="terminal-copy" className={button} onClick={() => void copy()}>
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}

const TYPE_TEXT: Record<AuthMethodView["type"], string> = {
  agent: "agent",
  env_var: "env_var",
  terminal: "terminal",
};

export function AuthChooser({ ask }: { ask: AuthChoiceRequest }) {
  const store = useSessionStore();
  const [chosen, setChosen] = useState<string>(ask.methods[0]?.id ?? "");
  const method = ask.methods.find((m) => m.id === chosen);
  return (
    <div data-testid="auth-chooser" className="flex flex-col gap-2 rounded border border-amber-700/60 p-2 text-xs">
      <p className="text-amber-200">
        {ask.reason === "before-session"
          ? "Choose how to authenticate before session/new:"
          : "The agent asks for authentication. Choose a method:"}
      </p>
      {ask.error ? (
        <p data-testid="auth-error" className={alert}>
          {ask.error}
        </p>
      ) : null}
      <div className="flex flex-col gap-1" role="radiogroup">
        {ask.methods.map((m) => (
          <label key={m.id} className="flex items-start gap-2" data-testid="auth-method" data-type={m.type}>
            <input type="radio" name="auth-method" checked={m.id === chosen} onChange={() => setChosen(m.id)} />
            <span>
              <span className="text-zinc-100">{m.name}</span>{" "}
              <code className="rounded bg-zinc-800 px-1 text-[10px] text-zinc-300">{TYPE_TEXT[m.type]}</code>{" "}
              <code className="text-[10px] text-zinc-500">{m.id}</code>
              {m.description ? <span className="block text-zinc-500">{m.description}</span> : null}
            </span>
          </label>
        ))}
      </div>
      {method?.type === "env_var" ? <EnvVarMethod key={method.id} method={method} /> : null}
      {method?.type === "terminal" || (method?.type === "agent" && method.terminal) ? (
        <TerminalMethod method={method} />
      ) : null}
      <div className="flex flex-wrap gap-2">
        {method && method.type !== "terminal" ? (
          <button
            type="button"
            data-testid="auth-authenticate"
            className={primary}
            onClick={() => store.answerAuth({ type: AGENT_METHODS.authenticate, methodId: method.id })}
          >
            Authenticate with {method.name}
          </button>
        ) : null}
        <button
          type="button"
          data-testid="auth-retry"
          className={button}
          title="Send session/new again (after logging in or setting the variables outside the page)"
          onClick={() => store.answerAuth({ type: "retry" })}
        >
          Retry
        </button>
        <button
          type="button"
          data-testid="auth-cancel"
          className={button}
          onClick={() => store.answerAuth({ type: "cancel" })}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
