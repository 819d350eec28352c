"use client";
/** The raw composer: type or template a JSON-RPC frame and send it as is. */
import { useState, type KeyboardEvent } from "react";
import type { RelayError } from "@/lib/contracts/wire";
import { initializeTemplate, responseTemplate, sessionNewTemplate, sessionPromptTemplate } from "./templates";
import { selectSessionId } from "./state/session-store";
import { useSession, useSessionStore } from "./state/use-session";
import { AGENT_METHODS } from "@/lib/protocol/methods";

/**
 * JSON objects (and arrays) go out parsed, so the relay writes them compactly;
 * anything else is sent verbatim, which is how malformed frames get tested.
 */
function toFrame(text: string): string | object {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null) return parsed;
  } catch {
    // Not JSON: send the text itself.
  }
  return text;
}

interface Props {
  draft: string;
  onDraftChange: (text: string) => void;
}

const templateButton =
  "rounded border border-zinc-700 bg-zinc-900 px-2 py-0.5 font-mono text-[11px] text-zinc-300 hover:border-sky-500 hover:text-sky-200 disabled:cursor-not-allowed disabled:opacity-40";

export function Composer({ draft, onDraftChange }: Props) {
  const store = useSessionStore();
  const nextId = useSession((s) => s.maxRequestId) + 1;
  const sessionId = useSession(selectSessionId);
  const oldestPending = useSession((s) => s.pending[0]);
  const agentCwd = useSession((s) => (s.agent.state === "running" ? s.agent.agent.cwd : undefined));
  const root = useSession((s) => s.info?.workspaceRoots[0]);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<RelayError>();
  const [sentSeq, setSentSeq] = useState<number>();

  const insert = (text: string) => {
    onDraftChange(text);
    setError(undefined);
  };

  const send = async () => {
    if (sending || draft.trim() === "") return;
    setSending(true);
    setError(undefined);
    setSentSeq(undefined);
    const res = await store.send(toFrame(draft));
    setSending(false);
    if (res.ok) setSentSeq(res.seq);
    else setError(res.error);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <section className="flex min-h-0 flex-col gap-2 border-b border-zinc-800 p-3" aria-label="Composer">
      <div className="flex items-center">
        <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Raw frame</h2>
        <span className="ml-auto text-[11px] text-zinc-600">next id {nextId}</span>
      </div>
      <div className="flex flex-wrap gap-1.5">
        <button
          type="button"
          data-testid="template-initialize"
          className={templateButton}
          onClick={() => insert(initializeTemplate(nextId))}
        >
          initialize
        </button>
        <button
          type="button"
          data-testid="template-session-new"
          className={templateButton}
          onClick={() => insert(sessionNewTemplate(nextId, agentCwd ?? root ?? "."))}
        >
          session/new
        </button>
        <button
          type="button"
          data-testid="template-session-prompt"
          className={templateButton}
          onClick={() => insert(sessionPromptTemplate(nextId, sessionId))}
          title={sessionId ? `sessionId ${sessionId}` : "send session/new first"}
        >
          session/prompt
        </button>
        <button
          type="button"
          data-testid="template-response"
          className={templateButton}
          disabled={!oldestPending}
          onClick={() => oldestPending && insert(responseTemplate(oldestPending))}
          title={
            oldestPending
              ? `answer ${oldestPending.method} (id ${String(oldestPending.id)})`
              : "no agent request is waiting"
          }
        >
          response
        </button>
      </div>
      <textarea
        data-testid="composer"
        aria-label="Raw JSON-RPC frame"
        value={draft}
        onChange={(e) => onDraftChange(e.target.value)}
        onKeyDown={onKeyDown}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        placeholder={`{"jsonrpc":"2.0","id":1,"method":"${AGENT_METHODS.initialize}","params":{…}}`}
        className="h-56 min-h-24 resize-y rounded border border-zinc-700 bg-zinc-900 p-2 font-mono text-xs leading-relaxed text-zinc-100 placeholder:text-zinc-600 focus:border-sky-500 focus:outline-none"
      />
      <div className="flex items-center gap-2">
        <button
          type="button"
          data-testid="send-frame"
          onClick={() => void send()}
          disabled={sending || draft.trim() === ""}
          className="rounded bg-sky-600 px-3 py-1 text-xs font-medium text-white hover:bg-sky-500 disabled:cursor-not-allowed disabled:bg-zinc-800 disabled:text-zinc-500"
        >
          Send
        </button>
        <span className="text-[11px] text-zinc-600">Ctrl/⌘+Enter</span>
        {sentSeq !== undefined ? (
          <span data-testid="composer-sent" className="ml-auto text-[11px] text-zinc-500">
            sent as seq {sentSeq}
          </span>
        ) : null}
      </div>
      {error ? (
        <p
          data-testid="composer-error"
          role="alert"
          className="break-words rounded bg-red-950/60 px-2 py-1 text-xs text-red-300"
        >
          {error.message}
        </p>
      ) : null}
    </section>
  );
}
