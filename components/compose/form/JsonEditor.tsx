"use client";
/** Free JSON (`_meta`, maps, shapes the form does not model): edited as text, applied when it parses. */
import { useEffect, useState } from "react";
import { pathString, type JsonNode } from "@/lib/features/compose/schema-form";
import { mono } from "../ui";
import { useFormEnv, type EditorProps } from "./form-env";

const pretty = (v: unknown) => (v === undefined ? "" : JSON.stringify(v, null, 2));

function parse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

export function JsonEditor({ value, path, set, testId }: EditorProps<JsonNode> & { testId?: string }) {
  const env = useFormEnv();
  const [text, setText] = useState(() => pretty(value));
  const parsed = parse(text);
  // Follow changes made elsewhere (a reset, a prefill), not our own edits.
  useEffect(() => {
    const current = parse(text);
    if (!current.ok || JSON.stringify(current.value) !== JSON.stringify(value)) {
      if (current.ok || value !== undefined) setText(pretty(value));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the value changes
  }, [value]);
  return (
    <div className="flex flex-col gap-0.5">
      <textarea
        data-testid={testId}
        data-path={pathString(path, env.root)}
        className={`${mono} min-h-10 resize-y`}
        rows={Math.min(8, Math.max(2, text.split("\n").length))}
        value={text}
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          const p = parse(e.target.value);
          if (p.ok) set(p.value);
        }}
      />
      {parsed.ok ? null : (
        <span className="text-[11px] text-amber-300">
          not JSON yet ({parsed.message}); the frame keeps the last valid value
        </span>
      )}
    </div>
  );
}
