"use client";
/** Sending one answer to a pending agent request (a frame, or agent:serve), with its failure shown on the card. */
import { useState } from "react";
import { useSessionStore } from "../state/use-session";

export type AnswerError = { code?: number | string; message: string; data?: unknown };

export function useAnswer() {
  const store = useSessionStore();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AnswerError>();
  const run = async (act: () => Promise<{ ok: boolean; error?: AnswerError }>) => {
    setBusy(true);
    setError(undefined);
    const res = await act();
    setBusy(false);
    if (!res.ok) setError(res.error ?? { message: "failed" });
  };
  return {
    // A watcher's cards show what waits but answer nothing (the relay refuses it anyway).
    busy: busy || store.watching,
    error,
    /** Sends a response frame. */
    reply: (frame: object) => run(() => store.send(frame)),
    /** Lets the relay carry out an fs/ or terminal/ request. */
    serve: (id: string | number) => run(() => store.serve(id)),
  };
}
