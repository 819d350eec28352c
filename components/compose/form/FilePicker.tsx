"use client";
/**
 * Fills base64 content from a local file: image and audio blocks (`data`,
 * `mimeType`), blob resources (`blob`, `mimeType`, `uri`) and text resources
 * (`text`, `uri`). Keyed on the schema definitions the object was built from.
 */
import { useRef } from "react";
import { button } from "../ui";

type Target = {
  accept: string;
  label: string;
  fill: (file: File, base64: string, text: string) => Record<string, unknown>;
};

const TARGETS: Record<string, Target> = {
  ImageContent: {
    accept: "image/*",
    label: "image file",
    fill: (f, b64) => ({ data: b64, mimeType: f.type || "image/png" }),
  },
  AudioContent: {
    accept: "audio/*",
    label: "audio file",
    fill: (f, b64) => ({ data: b64, mimeType: f.type || "audio/wav" }),
  },
  BlobResourceContents: {
    accept: "*/*",
    label: "file",
    fill: (f, b64) => ({ blob: b64, mimeType: f.type || "application/octet-stream", uri: `file:///${f.name}` }),
  },
  TextResourceContents: {
    accept: "text/*,.md,.json,.ts,.js,.py,.txt",
    label: "text file",
    fill: (f, _b, text) => ({ text, mimeType: f.type || "text/plain", uri: `file:///${f.name}` }),
  },
};

function base64(bytes: Uint8Array): string {
  let binary = "";
  // Chunked: String.fromCharCode with a huge spread overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function FilePicker({
  refs,
  value,
  set,
}: {
  refs: readonly string[];
  value: Record<string, unknown>;
  set: (v: unknown) => void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const key = [...refs].reverse().find((r) => r in TARGETS);
  if (!key) return null;
  const target = TARGETS[key]!;
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const text = key === "TextResourceContents" ? new TextDecoder().decode(bytes) : "";
    set({ ...value, ...target.fill(file, key === "TextResourceContents" ? "" : base64(bytes), text) });
  };
  return (
    <div className="flex items-center gap-2">
      <button type="button" data-testid="file-pick" className={button} onClick={() => inputRef.current?.click()}>
        Load {target.label}…
      </button>
      <input
        ref={inputRef}
        type="file"
        accept={target.accept}
        className="hidden"
        onChange={(e) => {
          void onFile(e.target.files?.[0]);
          e.target.value = "";
        }}
      />
    </div>
  );
}
