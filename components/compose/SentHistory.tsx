"use client";
/** What this tab sent, newest first: re-send it (a request gets a fresh id) or copy it into the editor. */
import { useState } from "react";
import type { SentEntry } from "@/lib/folds/sent-history";
import { formatTime } from "../format";
import { useSession, useSessionStore } from "../state/use-session";
import { button, sectionTitle } from "./ui";

const SHOWN = 30;

/** Pretty JSON for the editor when the text is JSON, else the text as sent. */
function forEditor(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function SentHistory({ onEdit }: { onEdit: (text: string) => void }) {
  const store = useSessionStore();
  const history = useSession((s) => s.history);
  const frames = useSession((s) => s.frames);
  const index = useSession((s) => s.index);
  useSession((s) => s.index.version);
  const [all, setAll] = useState(false);
  const entries = [...history].reverse().slice(0, all ? undefined : SHOWN);

  const resend = (entry: SentEntry) => {
    let frame: string | object = entry.text;
    if (entry.kind === "request" && typeof entry.id === "number") {
      // Same request, new id: an id must not be reused while it may be in flight.
      frame = { ...(JSON.parse(entry.text) as object), id: store.nextRequestId() };
    } else if (entry.kind !== "other") {
      frame = JSON.parse(entry.text) as object;
    }
    void store.send(frame);
  };

  return (
    <section className="flex flex-col gap-1.5 p-3" aria-label="Sent history">
      <h2 className={sectionTitle}>
        Sent <span className="font-normal text-zinc-500">({history.length})</span>
      </h2>
      {entries.length === 0 ? <p className="text-xs text-zinc-600">Nothing sent from this tab yet.</p> : null}
      <ul className="flex flex-col gap-1">
        {entries.map((e) => (
          <li
            key={`${e.ts}:${e.seq}`}
            data-testid="history-entry"
            data-method={e.method ?? ""}
            className="flex items-center gap-2 rounded border border-zinc-800 px-2 py-0.5 text-[11px]"
          >
            <span className="text-zinc-600">{formatTime(e.ts)}</span>
            <span className="truncate font-mono text-zinc-300" title={e.text}>
              {e.method ?? (e.kind === "response" ? "response" : "raw")}
              {e.id !== undefined ? <span className="text-zinc-500"> #{JSON.stringify(e.id)}</span> : null}
            </span>
            <span className="ml-auto flex shrink-0 gap-1">
              {/* Its Cancel is in the list of requests in flight above (one control per request). */}
              {e.kind === "request" && index.isUnanswered(e.seq) && frames.bySeq(e.seq) ? (
                <span className="text-sky-300">in flight</span>
              ) : null}
              <button type="button" data-testid="history-resend" className={button} onClick={() => resend(e)}>
                Re-send
              </button>
              <button
                type="button"
                data-testid="history-edit"
                className={button}
                onClick={() => onEdit(forEditor(e.text))}
              >
                Edit
              </button>
            </span>
          </li>
        ))}
      </ul>
      {history.length > SHOWN && !all ? (
        <button type="button" className={button} onClick={() => setAll(true)}>
          show all {history.length}
        </button>
      ) : null}
    </section>
  );
}
