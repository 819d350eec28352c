"use client";
/**
 * Strings (with enums and suggestions), numbers, booleans and consts. Each control is named by its
 * field's path (the name shown beside it is not a <label> of it).
 */
import { useState } from "react";
import {
  pathString,
  type BooleanNode,
  type ConstNode,
  type NumberNode,
  type StringNode,
} from "@/lib/features/compose/schema-form";
import { input, mono } from "../ui";
import { useFormEnv, type EditorProps } from "./form-env";

/** Fields whose text is usually long: a textarea. */
const MULTILINE = new Set(["text", "content", "newText", "oldText", "blob", "data", "message", "description"]);
const CUSTOM = "\u0000custom";

export function StringEditor({ node, value, path, set, name }: EditorProps<StringNode> & { name?: string }) {
  const env = useFormEnv();
  const at = pathString(path, env.root);
  const text = typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value);
  const suggestions = env.suggest?.(path);
  const [custom, setCustom] = useState(false);
  if (node.enum) {
    return (
      <select data-path={at} aria-label={at} className={input} value={text} onChange={(e) => set(e.target.value)}>
        {node.enum.includes(text) ? null : <option value={text}>{text || "(empty)"}</option>}
        {node.enum.map((v, i) => (
          <option key={v} value={v}>
            {node.enumLabels?.[i] && node.enumLabels[i] !== v ? `${node.enumLabels[i]} (${v})` : v}
          </option>
        ))}
      </select>
    );
  }
  if (suggestions?.length && !custom) {
    const known = suggestions.some((s) => s.value === text);
    const picked = suggestions.find((s) => s.value === text);
    return (
      <div className="flex flex-col gap-0.5">
        <select
          data-path={at}
          aria-label={at}
          className={mono}
          value={known ? text : CUSTOM}
          onChange={(e) => (e.target.value === CUSTOM ? setCustom(true) : set(e.target.value))}
        >
          {known ? null : <option value={CUSTOM}>{text ? `${text} (typed)` : "(choose)"}</option>}
          {suggestions.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
          {known ? <option value={CUSTOM}>other value…</option> : null}
        </select>
        {picked?.detail ? <span className="break-all text-[11px] text-zinc-500">{picked.detail}</span> : null}
      </div>
    );
  }
  const multiline = name !== undefined && MULTILINE.has(name);
  return multiline ? (
    <textarea
      data-path={at}
      aria-label={at}
      className={`${mono} min-h-12 resize-y`}
      rows={name === "text" ? 3 : 2}
      value={text}
      onChange={(e) => set(e.target.value)}
      spellCheck={false}
    />
  ) : (
    <input
      data-path={at}
      aria-label={at}
      className={mono}
      value={text}
      onChange={(e) => set(e.target.value)}
      placeholder={node.format ?? ""}
      spellCheck={false}
    />
  );
}

export function NumberEditor({ node, value, path, set }: EditorProps<NumberNode>) {
  const env = useFormEnv();
  const [draft, setDraft] = useState<string>();
  const shown = draft ?? (typeof value === "number" ? String(value) : value === undefined ? "" : JSON.stringify(value));
  const at = pathString(path, env.root);
  return (
    <input
      data-path={at}
      aria-label={at}
      type="text"
      inputMode={node.integer ? "numeric" : "decimal"}
      className={`${mono} w-32`}
      value={shown}
      onChange={(e) => {
        const t = e.target.value;
        setDraft(t);
        const n = Number(t);
        // Not a number (yet): the text itself goes in, and validation says so.
        set(t.trim() !== "" && Number.isFinite(n) ? n : t);
      }}
      onBlur={() => setDraft(undefined)}
    />
  );
}

export function BooleanEditor({ value, path, set }: EditorProps<BooleanNode>) {
  const env = useFormEnv();
  const at = pathString(path, env.root);
  return (
    <input
      data-path={at}
      aria-label={at}
      type="checkbox"
      className="h-3.5 w-3.5 accent-sky-500"
      checked={value === true}
      onChange={(e) => set(e.target.checked)}
    />
  );
}

export function ConstView({ node }: EditorProps<ConstNode>) {
  return <code className="text-xs text-zinc-400">{JSON.stringify(node.value)}</code>;
}
