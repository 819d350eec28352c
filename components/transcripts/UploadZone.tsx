"use client";
/**
 * Import by drag-and-drop or file picker. The server checks the whole file
 * first: a refused one shows the server's message (it names the line) and
 * nothing is stored.
 */
import { useState, type DragEvent } from "react";
import type { TranscriptMeta } from "./api";

type Status = { kind: "busy" | "ok" | "warn" | "error"; text: string };

export function UploadZone({ onUpload }: { onUpload: (file: Blob) => Promise<TranscriptMeta> }) {
  const [over, setOver] = useState(false);
  const [status, setStatus] = useState<Status>();

  const upload = async (file: File) => {
    setStatus({ kind: "busy", text: `Importing ${file.name}…` });
    try {
      const meta = await onUpload(file);
      setStatus(
        meta.duplicateOf
          ? {
              kind: "warn",
              text: `Imported ${file.name} as “${meta.title}”, but it is the same transcript as “${meta.duplicateOf.title}” (${meta.duplicateOf.id}), already here: delete one if you did not mean to import it twice.`,
            }
          : { kind: "ok", text: `Imported ${file.name} as “${meta.title}” (${meta.frames} frames).` },
      );
    } catch (err) {
      setStatus({
        kind: "error",
        text: `${file.name} was not imported: ${(err as Error).message}. Nothing was stored.`,
      });
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const file = e.dataTransfer.files[0];
    if (file) void upload(file);
  };

  return (
    <div
      data-testid="upload-zone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={`flex flex-col gap-1 rounded-lg border border-dashed px-4 py-3 text-xs ${
        over ? "border-sky-500 bg-sky-500/10" : "border-zinc-700 bg-zinc-900/40"
      }`}
    >
      <p className="text-zinc-400">
        Drop a transcript (<code className="text-zinc-300">.jsonl</code>) here, or{" "}
        <label className="cursor-pointer text-sky-400 hover:underline">
          choose a file
          <input
            type="file"
            data-testid="upload-input"
            accept=".jsonl,.ndjson,.json,application/x-ndjson"
            className="sr-only"
            onChange={(e) => {
              const file = e.target.files?.[0];
              // Cleared, so picking the same file again imports it again.
              e.target.value = "";
              if (file) void upload(file);
            }}
          />
        </label>
        .
      </p>
      {status ? (
        <p
          data-testid={
            status.kind === "error" ? "upload-error" : status.kind === "warn" ? "upload-duplicate" : "upload-status"
          }
          role={status.kind === "error" || status.kind === "warn" ? "alert" : "status"}
          className={
            status.kind === "error"
              ? "break-words text-red-300"
              : status.kind === "warn"
                ? "break-words text-amber-300"
                : status.kind === "ok"
                  ? "text-emerald-300"
                  : "text-zinc-400"
          }
        >
          {status.text}
        </p>
      ) : null}
    </div>
  );
}
