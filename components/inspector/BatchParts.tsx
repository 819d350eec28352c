"use client";
/**
 * A batch line of a protocol that carries them (ACP v2) in the selected frame's detail: its parts,
 * each with its kind, method and id, and where its pair lies (a request's answer, the request a
 * response answers; a part of another batch, or a frame of its own), to jump to. For a request
 * that is one frame, the batch part that answers it.
 */
import type { FrameIndex } from "@/lib/folds/frame-index";
import type { BatchPart, PartRef } from "@/lib/folds/acp-v2/batches";
import type { Frame } from "@/lib/protocol/frame";
import type { FrameWindow } from "@/lib/folds/frame-log";
import { formatId } from "../format";
import { BATCH_STYLE, KIND_STYLE } from "./FrameRow";

const where = (at: PartRef) => `#${at.seq}${at.index === undefined ? "" : ` part ${at.index + 1}`}`;

function PairLink({ part, frames, onJump }: { part: BatchPart; frames: FrameWindow; onJump: (seq: number) => void }) {
  const at = part.pair;
  if (!at) return part.kind === "request" ? <span className="text-amber-300/80">no answer yet</span> : <span />;
  const held = frames.bySeq(at.seq) !== undefined;
  return (
    <button
      type="button"
      data-testid="batch-pair"
      data-target={at.seq}
      className="text-sky-300 hover:underline disabled:text-zinc-500 disabled:no-underline"
      disabled={!held}
      title={held ? undefined : "no longer held"}
      onClick={() => onJump(at.seq)}
    >
      {part.kind === "request" ? `answered by ${where(at)}` : `answers ${where(at)}`}
    </button>
  );
}

export function BatchParts({
  frame,
  index,
  frames,
  onJump,
}: {
  frame: Frame;
  index: FrameIndex;
  frames: FrameWindow;
  onJump: (seq: number) => void;
}) {
  const batch = index.batchOf(frame.seq);
  const answer = batch ? undefined : index.batchAnswerOf(frame.seq);
  if (answer)
    return (
      <p data-testid="batch-answer" className="border-b border-zinc-800 px-3 py-1.5 text-xs text-zinc-300">
        Answered in a batch:{" "}
        <button type="button" className="text-sky-300 hover:underline" onClick={() => onJump(answer.seq)}>
          {where(answer)}
        </button>
      </p>
    );
  if (!batch) return null;
  return (
    <div data-testid="batch-parts" className="max-h-40 overflow-auto border-b border-zinc-800 px-3 py-1.5 text-xs">
      <p className="mb-1 text-zinc-400">
        <span className={`mr-1.5 rounded px-1.5 py-px text-[10px] uppercase ring-1 ring-inset ${BATCH_STYLE}`}>
          batch
        </span>
        {batch.parts.length === 0
          ? "an empty batch ([]): it carries no message"
          : `${batch.parts.length} message${batch.parts.length === 1 ? "" : "s"} on one line`}
      </p>
      <ol className="flex flex-col gap-0.5">
        {batch.parts.map((part) => (
          <li
            key={part.index}
            data-testid="batch-part"
            data-kind={part.kind}
            data-method={part.method ?? ""}
            className="grid grid-cols-[2.5rem_6.5rem_minmax(6rem,14rem)_4rem_minmax(0,1fr)] items-center gap-x-2 font-mono"
          >
            <span className="text-right text-zinc-500">{part.index + 1}.</span>
            <span>
              <span
                className={`rounded px-1.5 py-px text-[10px] uppercase tracking-wide ring-1 ring-inset ${KIND_STYLE[part.kind]}`}
              >
                {part.kind}
              </span>
            </span>
            <span className="truncate text-zinc-100">
              {part.method ?? (part.error ? <em className="text-red-300">{part.error}</em> : "")}
            </span>
            <span className="truncate text-zinc-400">{formatId(part.id)}</span>
            <PairLink part={part} frames={frames} onJump={onJump} />
          </li>
        ))}
      </ol>
    </div>
  );
}
