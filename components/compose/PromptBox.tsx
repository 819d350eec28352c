"use client";
/**
 * The prompt box of a ready session: Enter sends the text as a turn in the
 * agent's protocol (lib/features/connect-flow-prompt.ts: ACP's session/prompt,
 * the app-server's turn/start, or turn/steer while its turn runs), Shift+Enter
 * for a new line; "/" opens the agent's slash commands (its latest
 * available_commands_update). The answer streams into the views on the right.
 */
import { useMemo, useState, type KeyboardEvent } from "react";
import { currentSession } from "@/lib/folds/agent-facts";
import { PROMPT_CLIENTS } from "@/lib/features/connect-flow-prompt";
import {
  applyCommand,
  matchCommands,
  slashQuery,
  toSlashCommands,
  type SlashCommand,
} from "@/lib/folds/slash-commands";
import { selectProtocol } from "../state/session-store";
import { useSession, useSessionStore, useTabState } from "../state/use-session";
import { SlashMenu } from "./SlashMenu";
import { TurnStatus } from "./TurnStatus";
import { alert, danger, primary } from "./ui";

export function PromptBox({ sessionId }: { sessionId: string }) {
  const store = useSessionStore();
  const facts = useSession((s) => s.facts);
  const appServer = useSession((s) => s.appServer);
  const client = PROMPT_CLIENTS[useSession(selectProtocol)];
  const state = useMemo(() => ({ facts, appServer }), [facts, appServer]);
  const [text, setText] = useTabState("prompt.text", "");
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string>();
  const [error, setError] = useState<string>();
  const commands = useMemo(() => toSlashCommands(currentSession(facts).commands), [facts]);
  const query = slashQuery(text);
  const matches = query !== undefined && closedFor !== text ? matchCommands(commands, query) : [];
  const menuOpen = matches.length > 0;
  const turn = useMemo(() => client.turn(state, sessionId), [client, state, sessionId]);
  const running = turn !== undefined && !turn.ended;
  // A running turn blocks sending, unless the protocol steers it with more input.
  const busy = running && !client.steers;

  const pick = (c: SlashCommand) => {
    const next = applyCommand(c);
    setText(next);
    setClosedFor(next);
    setActive(0);
  };

  const send = async () => {
    if (text.trim() === "" || busy) return;
    const prompt = text;
    setText("");
    setError(undefined);
    const outcome = await client.send(store, state, sessionId, prompt);
    if (outcome.kind === "failed") {
      setError(outcome.message);
      setText(prompt);
    }
  };

  const cancel = async () => {
    setError(await client.cancel(store, state, sessionId));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (menuOpen) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setActive((a) => (a + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        pick(matches[Math.min(active, matches.length - 1)]!);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setClosedFor(text);
        return;
      }
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <div className="flex flex-col gap-1.5" data-testid="prompt-box">
      <div className="relative">
        <textarea
          data-testid="prompt-input"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          placeholder={commands.length ? "Ask the agent… (/ for commands)" : "Ask the agent…"}
          rows={4}
          className="w-full resize-y rounded border border-zinc-700 bg-zinc-900 p-2 text-sm text-zinc-100 placeholder:text-zinc-600 focus:border-sky-500 focus:outline-none"
        />
        {menuOpen ? (
          <div className="absolute inset-x-0 top-full z-10 mt-0.5">
            <SlashMenu commands={matches} active={Math.min(active, matches.length - 1)} onPick={pick} />
          </div>
        ) : null}
      </div>
      <div className="flex items-center gap-2">
        <button
          type="button"
          data-testid="prompt-send"
          className={primary}
          disabled={busy || text.trim() === ""}
          onClick={() => void send()}
        >
          {running && client.steers ? "Steer" : "Send"}
        </button>
        {running ? (
          <button type="button" data-testid="prompt-cancel" className={danger} onClick={() => void cancel()}>
            Cancel turn
          </button>
        ) : null}
        <span className="text-[11px] text-zinc-600">
          {running && client.steers ? "Enter adds to the running turn" : "Enter sends"} · Shift+Enter new line
        </span>
      </div>
      {error ? <p className={alert}>{error}</p> : null}
      <TurnStatus turn={turn} />
    </div>
  );
}
