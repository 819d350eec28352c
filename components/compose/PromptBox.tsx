"use client";
/**
 * The prompt box of a ready session: Enter sends a session/prompt with one
 * text block (Shift+Enter for a new line); "/" opens the agent's slash
 * commands (its latest available_commands_update). The answer streams into
 * the views on the right.
 */
import { useMemo, useState, type KeyboardEvent } from "react";
import { currentSession } from "@/lib/folds/agent-facts";
import {
  applyCommand,
  matchCommands,
  slashQuery,
  toSlashCommands,
  type SlashCommand,
} from "@/lib/folds/slash-commands";
import { useSession, useSessionStore, useTabState } from "../state/use-session";
import { SlashMenu } from "./SlashMenu";
import { TurnStatus } from "./TurnStatus";
import { alert, danger, primary } from "./ui";
import { AGENT_METHODS } from "@/lib/protocol/methods";

export function PromptBox({ sessionId }: { sessionId: string }) {
  const store = useSessionStore();
  const facts = useSession((s) => s.facts);
  const [text, setText] = useTabState("prompt.text", "");
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string>();
  const [error, setError] = useState<string>();
  const commands = useMemo(() => toSlashCommands(currentSession(facts).commands), [facts]);
  const query = slashQuery(text);
  const matches = query !== undefined && closedFor !== text ? matchCommands(commands, query) : [];
  const menuOpen = matches.length > 0;
  const turn = facts.lastTurn?.sessionId === sessionId ? facts.lastTurn : undefined;
  const busy = turn !== undefined && !turn.ended;

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
    const outcome = await store.request(AGENT_METHODS.session_prompt, {
      sessionId,
      prompt: [{ type: "text", text: prompt }],
    });
    if (outcome.kind === "failed") {
      setError(outcome.message);
      setText(prompt);
    }
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
          Send
        </button>
        {busy ? (
          <button
            type="button"
            data-testid="prompt-cancel"
            className={danger}
            onClick={() => void store.notify(AGENT_METHODS.session_cancel, { sessionId })}
          >
            Cancel turn
          </button>
        ) : null}
        <span className="text-[11px] text-zinc-600">Enter sends · Shift+Enter new line</span>
      </div>
      {error ? <p className={alert}>{error}</p> : null}
      <TurnStatus turn={turn} />
    </div>
  );
}
