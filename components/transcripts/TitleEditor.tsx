"use client";
/** A transcript's title, renamed in place: click, type, Enter (or leave the field) saves, Escape cancels. */
import { useEffect, useRef, useState, type FormEvent } from "react";

interface Props {
  title: string;
  onSave: (title: string) => Promise<void>;
  /** Why this viewer may not rename it (another person's recording): shown, not editable. */
  refused?: string;
}

export function TitleEditor({ title, onSave, refused }: Props) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(title);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // Back from editing by the keyboard (Enter, Escape): the focus returns to the title, not to the page's top.
  const refocus = useRef(false);
  useEffect(() => {
    if (!editing && refocus.current) {
      refocus.current = false;
      button.current?.focus();
    }
  }, [editing]);

  const cancelled = useRef(false);
  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    if (saving || cancelled.current) return;
    const next = draft.trim();
    if (next === "" || next === title) return setEditing(false);
    setSaving(true);
    try {
      await onSave(next);
      setError(undefined);
      setEditing(false);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  if (refused !== undefined) {
    return (
      <span data-testid="transcript-title" title={refused} className="block max-w-full truncate text-zinc-100">
        {title}
      </span>
    );
  }
  if (!editing) {
    return (
      <button
        ref={button}
        type="button"
        data-testid="transcript-title"
        title="Rename"
        onClick={() => {
          setDraft(title);
          cancelled.current = false;
          setEditing(true);
        }}
        className="group max-w-full truncate text-left text-zinc-100 hover:text-sky-300"
      >
        {title}
        <span className="ml-1.5 text-zinc-400 group-hover:text-sky-400" aria-hidden>
          ✎
        </span>
      </button>
    );
  }
  return (
    <form onSubmit={save} className="flex flex-col gap-1">
      <input
        data-testid="title-input"
        aria-label="Title"
        autoFocus
        value={draft}
        maxLength={200}
        disabled={saving}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => void save()}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            // Cancelled: nothing is saved, not even by the blur that removing the field may cause.
            cancelled.current = true;
            refocus.current = true;
            setError(undefined);
            setEditing(false);
          } else if (e.key === "Enter") refocus.current = true;
        }}
        className="w-full rounded border border-sky-600 bg-zinc-900 px-1.5 py-0.5 text-xs text-zinc-100 focus:outline-none"
      />
      {error ? <span className="text-[11px] text-red-300">{error}</span> : null}
    </form>
  );
}
