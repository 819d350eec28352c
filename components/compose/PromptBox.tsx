"use client";
/**
 * The prompt box of a ready session: Enter sends the text as a turn in the
 * agent's protocol (lib/features/connect/flow-prompt.ts: ACP's session/prompt,
 * the app-server's turn/start, or turn/steer while its turn runs), Shift+Enter
 * for a new line; "/" opens the agent's slash commands (its latest
 * available_commands_update) above the box, which sits at the bottom of the page. The answer streams
 * into the conversation above.
 * A prompt sent while a turn runs (and the protocol cannot steer it) is queued
 * visibly and goes out when the turn ends; never dropped.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { currentSession } from "@/lib/folds/agent-facts";
import {
  applyCommand,
  matchCommands,
  slashQuery,
  toSlashCommands,
  type SlashCommand,
} from "@/lib/folds/slash-commands";
import { useProtocolState, useSessionStore, useTabState } from "../state/use-session";
import { PROMPT_RUNNING_SESSION, usePublishTabSignal } from "../state/tab-signal";
import { SlashMenu } from "./SlashMenu";
import { TurnStatus } from "./TurnStatus";
import { alert, danger, primary } from "./ui";

export function PromptBox({ sessionId }: { sessionId: string }) {
  const store = useSessionStore();
  const { spec, state } = useProtocolState();
  const { facts } = state;
  const client = spec.promptClient;
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
  // One prompt waits for the running turn; it names its session, so another session never gets it.
  const [queued, setQueued] = useTabState<{ sessionId: string; text: string } | undefined>("prompt.queued", undefined);
  const sending = useRef(false);
  // This box offers the running turn's Cancel: the session header leaves it out for this session.
  usePublishTabSignal(PROMPT_RUNNING_SESSION, running ? sessionId : undefined);
  // The turn (by its start) whose cancel was sent: the button then says "Cancel again".
  const [cancelledTurn, setCancelledTurn] = useTabState<number | undefined>("prompt.cancelled", undefined);
  const cancelRequested = running && cancelledTurn === turn.ts;

  const pick = (c: SlashCommand) => {
    const next = applyCommand(c);
    setText(next);
    setClosedFor(next);
    setActive(0);
  };

  const sendNow = async (prompt: string) => {
    setError(undefined);
    const outcome = await client.send(store, state, sessionId, prompt);
    if (outcome.kind === "failed") {
      setError(outcome.message);
      setText((t) => (t === "" ? prompt : `${prompt}\n${t}`));
    }
  };

  const send = async () => {
    if (text.trim() === "") return;
    const prompt = text;
    setText("");
    if (busy || queued) {
      setQueued({ sessionId, text: queued ? `${queued.text}\n${prompt}` : prompt });
      return;
    }
    await sendNow(prompt);
  };

  // The turn ended: the queued prompt goes out (or back into the box when it was for another session).
  useEffect(() => {
    if (!queued || busy || sending.current) return;
    setQueued(undefined);
    if (queued.sessionId !== sessionId) {
      setText((t) => (t === "" ? queued.text : `${queued.text}\n${t}`));
      return;
    }
    sending.current = true;
    void sendNow(queued.text).finally(() => (sending.current = false));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- sendNow reads the latest state; the queue and the turn decide when
  }, [queued, busy, sessionId]);

  const cancel = async () => {
    const ts = turn?.ts;
    const failure = await client.cancel(store, state, sessionId);
    setError(failure);
    if (!failure) setCancelledTurn(ts);
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
    // Escape leaves the box, so the answer keys (a, r, Enter) reach a waiting card.
    if (e.key === "Escape") {
      e.preventDefault();
      e.currentTarget.blur();
      return;
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
          rows={2}
          aria-label="Prompt"
          className="w-full resize-y rounded border border-zinc-700 bg-zinc-900 p-2 text-sm text-zinc-100 placeholder:text-zinc-600 focus:border-sky-500 focus:outline-none"
        />
        {menuOpen ? (
          <div className="absolute inset-x-0 bottom-full z-10 mb-0.5">
            <SlashMenu commands={matches} active={Math.min(active, matches.length - 1)} onPick={pick} />
          </div>
        ) : null}
      </div>
      <div className="flex items-center gap-2">
        <button
          type="button"
          data-testid="prompt-send"
          className={primary}
          disabled={text.trim() === ""}
          onClick={() => void send()}
        >
          {running && client.steers ? "Steer" : busy ? "Queue" : "Send"}
        </button>
        {running ? (
          <button
            type="button"
            data-testid="prompt-cancel"
            data-requested={cancelRequested}
            className={danger}
            onClick={() => void cancel()}
          >
            {cancelRequested ? "Cancel again" : "Cancel turn"}
          </button>
        ) : null}
        <span className="text-[11px] text-zinc-600">
          {running && client.steers
            ? "Enter adds to the running turn"
            : busy
              ? "Enter queues it until the turn ends"
              : "Enter sends"}{" "}
          · Shift+Enter new line
        </span>
      </div>
      {queued ? (
        <p
          data-testid="prompt-queued"
          className="flex items-start gap-2 rounded border border-sky-700/60 bg-sky-950/30 p-1.5 text-xs text-sky-100"
        >
          <span className="min-w-0 flex-1 whitespace-pre-wrap break-words">
            <span className="font-medium">Queued, sent when this turn ends:</span> {queued.text}
          </span>
          <button
            type="button"
            data-testid="prompt-unqueue"
            className="shrink-0 text-sky-300 hover:underline"
            onClick={() => {
              setQueued(undefined);
              setText((t) => (t === "" ? queued.text : `${queued.text}\n${t}`));
            }}
          >
            Edit
          </button>
        </p>
      ) : null}
      {error ? <p className={alert}>{error}</p> : null}
      <TurnStatus turn={turn} />
    </div>
  );
}
