"use client";
/** Delete with an inline confirmation (no browser dialog). */
import { useState } from "react";

/** "Delete? Yes No" in place; No (or Escape) gives up. */
export function ConfirmDelete({ onDelete, onCancel }: { onDelete: () => Promise<void>; onCancel: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <span
      className="inline-flex items-center gap-1"
      role="group"
      aria-label="Confirm delete"
      onKeyDown={(e) => {
        if (e.key === "Escape") onCancel();
      }}
    >
      <span className="text-zinc-400">Delete?</span>
      <button
        type="button"
        data-testid="confirm-delete"
        disabled={busy}
        // Asked for from a menu that has just closed: the question takes the focus.
        autoFocus
        onClick={async () => {
          setBusy(true);
          try {
            await onDelete();
          } finally {
            setBusy(false);
            onCancel();
          }
        }}
        className="rounded bg-red-600/80 px-1.5 py-0.5 text-white hover:bg-red-600"
      >
        Yes
      </button>
      <button
        type="button"
        data-testid="cancel-delete"
        onClick={onCancel}
        className="rounded px-1.5 py-0.5 text-zinc-400 hover:bg-zinc-800"
      >
        No
      </button>
    </span>
  );
}
