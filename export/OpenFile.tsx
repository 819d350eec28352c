/**
 * The empty viewer's way in: a transcript file dropped anywhere on the page or
 * chosen with the picker is read here, in the browser (nothing is sent
 * anywhere: the page's policy forbids any network), through a blob: URL.
 */
import { useEffect, useState, type ReactNode } from "react";

/** Files dropped anywhere on the page open, as well as on the zone. */
export function useDroppedFile(onFile: (file: File) => void): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    const dragOver = (e: DragEvent) => {
      e.preventDefault();
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (e.relatedTarget === null) setOver(false);
    };
    const drop = (e: DragEvent) => {
      e.preventDefault();
      setOver(false);
      const file = e.dataTransfer?.files[0];
      if (file) onFile(file);
    };
    window.addEventListener("dragover", dragOver);
    window.addEventListener("dragleave", leave);
    window.addEventListener("drop", drop);
    return () => {
      window.removeEventListener("dragover", dragOver);
      window.removeEventListener("dragleave", leave);
      window.removeEventListener("drop", drop);
    };
  }, [onFile]);
  return over;
}

export function FilePicker({ onFile, children }: { onFile: (file: File) => void; children: ReactNode }) {
  return (
    <label className="cursor-pointer text-sky-400 hover:underline">
      {children}
      <input
        type="file"
        data-testid="viewer-file-input"
        accept=".jsonl,.ndjson,.json,application/x-ndjson"
        className="sr-only"
        onChange={(e) => {
          const file = e.target.files?.[0];
          // Cleared, so the same file can be opened again.
          e.target.value = "";
          if (file) onFile(file);
        }}
      />
    </label>
  );
}

export function OpenFile({ onFile, over }: { onFile: (file: File) => void; over: boolean }) {
  return (
    <div className="flex flex-1 items-center justify-center p-8">
      <div
        data-testid="viewer-drop-zone"
        className={`max-w-lg rounded-lg border border-dashed p-8 text-center text-sm ${
          over ? "border-sky-500 bg-sky-500/10" : "border-zinc-700 bg-zinc-900/40"
        }`}
      >
        <p className="mb-2 text-base text-zinc-100">Open a transcript</p>
        <p className="text-zinc-400">
          Drop an ACP Playground transcript (<code className="text-zinc-300">.jsonl</code>) here, or{" "}
          <FilePicker onFile={onFile}>choose a file</FilePicker>.
        </p>
        <p className="mt-3 text-xs text-zinc-500">
          It is read in this browser only: this page makes no network request. Files are shown as they are (a file
          exported from the playground was redacted when recorded).
        </p>
      </div>
    </div>
  );
}
