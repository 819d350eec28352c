"use client";
/** Delete with an inline confirmation (no browser dialog). */
import { useState } from "react";

export function DeleteButton({ onDelete, disabled }: { onDelete: () => Promise<void>; disabled?: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!confirming) {
    return (
      <button
        type="button"
        data-testid="delete-transcript"
        disabled={disabled}
        title={disabled ? "Still being recorded" : "Delete"}
        onClick={() => setConfirming(true)}
        className="rounded px-1.5 py-0.5 text-red-300/80 hover:bg-red-500/10 hover:text-red-300 disabled:opacity-40"
      >
        Delete
      </button>
    );
  }
  return (
    <span className="inline-flex items-center gap-1" role="group" aria-label="Confirm delete">
      <span className="text-zinc-400">Delete?</span>
      <button
        type="button"
        data-testid="confirm-delete"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onDelete();
          } finally {
            setBusy(false);
            setConfirming(false);
          }
        }}
        className="rounded bg-red-600/80 px-1.5 py-0.5 text-white hover:bg-red-600"
      >
        Yes
      </button>
      <button
        type="button"
        data-testid="cancel-delete"
        onClick={() => setConfirming(false)}
        className="rounded px-1.5 py-0.5 text-zinc-400 hover:bg-zinc-800"
      >
        No
      </button>
    </span>
  );
}
