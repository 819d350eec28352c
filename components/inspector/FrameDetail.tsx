"use client";
/** The selected frame: summary, protocol checks, jump to its partner, JSON tree, raw line, copy. */
import { useEffect, useState } from "react";
import { allExpanded, darkStyles, JsonView } from "react-json-view-lite";
import { frameBytes, type Frame } from "@/lib/protocol/frame";
import { frameChecks } from "@/lib/folds/frame-checks";
import { CHECK_LABEL } from "@/lib/folds/static-checks";
import type { FrameIndex } from "@/lib/folds/frame-index";
import type { FrameWindow } from "@/lib/folds/frame-log";
import { copyText } from "../clipboard";
import { CopyFrameLink } from "../transcripts/CopyFrameLink";
import { formatBytes, formatDateTime, formatId, formatLatency, prettyFrame } from "../format";
import { BATCH_STYLE, KIND_STYLE } from "./FrameRow";
import { schemaVerdict, type FrameJudge } from "./use-schema-checker";
import { mcpLabel } from "@/lib/folds/mcp-pairs";
import { SchemaBadge } from "./FrameRow";
import { BatchParts } from "./BatchParts";

interface Props {
  frame: Frame;
  frames: FrameWindow;
  index: FrameIndex;
  checker: FrameJudge | undefined;
  now: number;
  /** False when the current filter hides the frame from the list. */
  listed: boolean;
  onJump: (seq: number) => void;
  onClose: () => void;
}

const button =
  "rounded border border-zinc-700 bg-zinc-900 px-2 py-0.5 text-[11px] text-zinc-300 hover:border-sky-500 hover:text-sky-200 disabled:cursor-not-allowed disabled:opacity-40";

/** Expand the first levels; deep or long content stays folded until clicked. */
const expandNode = (level: number, value: unknown) => level < 4 && !(Array.isArray(value) && value.length > 50);

export function FrameDetail({ frame, frames, index, checker, now, listed, onJump, onClose }: Props) {
  const [copied, setCopied] = useState<string>();
  const [tree, setTree] = useState(true);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(undefined), 1500);
    return () => clearTimeout(t);
  }, [copied]);

  const partner = index.partnerOf(frame.seq);
  // A batch of a protocol that carries them is its wire's `invalid` kind but no error (./BatchParts.tsx).
  const batch = index.batchOf(frame.seq) !== undefined;
  const partnerHeld = partner !== undefined && frames.bySeq(partner) !== undefined;
  const checks = frameChecks(frame, index, now);
  const verdict = schemaVerdict(checker, frame);
  const schema = verdict.issues;
  const inner = index.mcp.innerOf(frame.seq);
  const innerPartner = inner?.requestSeq !== undefined && inner.requestSeq !== frame.seq ? inner.requestSeq : undefined;
  const toAgent = frame.dir === "to-agent";
  const isTree = typeof frame.message === "object" && frame.message !== null;

  const copy = async (what: "raw" | "json") => {
    const ok = await copyText(what === "raw" ? frame.raw : prettyFrame(frame));
    setCopied(ok ? (what === "raw" ? "raw line copied" : "JSON copied") : "copy failed");
  };

  return (
    <section
      data-testid="frame-detail"
      data-seq={frame.seq}
      aria-label={`Frame ${frame.seq}`}
      className="flex h-[45%] min-h-40 shrink-0 flex-col border-t border-zinc-700 bg-zinc-950"
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-zinc-800 px-3 py-1.5 text-xs">
        <span className={toAgent ? "text-sky-400" : "text-amber-400"}>{toAgent ? "→ to agent" : "← from agent"}</span>
        <span className="font-mono text-zinc-300">#{frame.seq}</span>
        <span
          className={`rounded px-1.5 py-px text-[10px] uppercase tracking-wide ring-1 ring-inset ${batch ? BATCH_STYLE : KIND_STYLE[frame.kind]}`}
        >
          {batch ? "batch" : frame.kind}
        </span>
        {frame.method ? <span className="font-mono text-zinc-100">{frame.method}</span> : null}
        {verdict.variant && verdict.variant !== "stable" ? <SchemaBadge variant={verdict.variant} /> : null}
        {inner ? (
          <span data-testid="detail-mcp" className="font-mono text-violet-300">
            MCP {mcpLabel(inner)} · server {inner.serverId} · inner id {formatId(inner.requestId)}
            {innerPartner !== undefined ? (
              <button
                type="button"
                data-testid="jump-mcp-request"
                className={`${button} ml-1.5`}
                disabled={!frames.bySeq(innerPartner)}
                onClick={() => onJump(innerPartner)}
              >
                Go to MCP request #{innerPartner}
              </button>
            ) : null}
          </span>
        ) : null}
        {frame.id !== undefined ? <span className="font-mono text-zinc-400">id {formatId(frame.id)}</span> : null}
        {frame.latencyMs !== undefined ? (
          <span className="text-emerald-400/90">{formatLatency(frame.latencyMs)}</span>
        ) : null}
        <span className="text-zinc-400">{formatBytes(frameBytes(frame))}</span>
        <span className="text-zinc-400 tabular-nums">{formatDateTime(frame.ts)}</span>
        {!listed ? <span className="text-amber-400">hidden by the current filter</span> : null}
        <span className="ml-auto flex items-center gap-1.5">
          {partner !== undefined ? (
            <button
              type="button"
              data-testid="jump-partner"
              data-target={partner}
              className={button}
              disabled={!partnerHeld}
              onClick={() => onJump(partner)}
              title={partnerHeld ? undefined : "no longer held"}
            >
              {frame.kind === "request" ? `Go to response #${partner} ↓` : `Go to request #${partner} ↑`}
            </button>
          ) : frame.kind === "request" && frame.id !== undefined ? (
            <span data-testid="no-partner" className="text-amber-300/80">
              no response yet
            </span>
          ) : null}
          <button type="button" data-testid="copy-raw" className={button} onClick={() => void copy("raw")}>
            Copy raw
          </button>
          <button
            type="button"
            data-testid="copy-json"
            className={button}
            onClick={() => void copy("json")}
            disabled={!isTree}
          >
            Copy JSON
          </button>
          <CopyFrameLink seq={frame.seq} className={button} />
          <button
            type="button"
            data-testid="close-detail"
            className={button}
            onClick={onClose}
            aria-label="Close detail"
          >
            ×
          </button>
        </span>
      </header>
      {copied ? (
        <p data-testid="copy-status" role="status" className="px-3 pt-1 text-[11px] text-emerald-300">
          {copied}
        </p>
      ) : null}
      <BatchParts frame={frame} index={index} frames={frames} onJump={onJump} />
      {checks.length || schema.length || (frame.error && !batch) ? (
        <ul data-testid="detail-checks" className="flex flex-col gap-0.5 border-b border-zinc-800 px-3 py-1.5 text-xs">
          {frame.error && frame.kind === "invalid" && !batch ? (
            <li className="text-red-300">invalid: {frame.error}</li>
          ) : null}
          {frame.rawBase64 !== undefined ? (
            <li data-testid="raw-bytes" className="break-all text-zinc-400">
              exact bytes (base64): <code>{frame.rawBase64.slice(0, 4096)}</code>
              {frame.rawBase64.length > 4096 ? "…" : null}
            </li>
          ) : null}
          {checks.map((c) => (
            <li
              key={c.code}
              data-check={c.code}
              className={c.code === "unanswered" ? "text-amber-300" : "text-red-300"}
            >
              <span className="font-semibold">{CHECK_LABEL[c.code]}:</span> {c.message}
            </li>
          ))}
          {schema.map((issue, i) => (
            <li key={`s${i}`} data-check="schema" className="text-red-300">
              <span className="font-semibold">schema{verdict.variant ? ` (${verdict.variant})` : ""}:</span>{" "}
              <code>{issue.path || "value"}</code> {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex min-h-0 flex-1">
        <div className="flex min-w-0 flex-1 flex-col">
          <div className="flex items-center gap-2 px-3 pt-1.5 text-[11px] uppercase tracking-wider text-zinc-400">
            <button
              type="button"
              className={tree ? "text-zinc-200" : "hover:text-zinc-300"}
              onClick={() => setTree(true)}
              disabled={!isTree}
            >
              JSON
            </button>
            <span>·</span>
            <button
              type="button"
              className={!tree || !isTree ? "text-zinc-200" : "hover:text-zinc-300"}
              onClick={() => setTree(false)}
            >
              pretty text
            </button>
          </div>
          <div data-testid="frame-json" className="min-h-0 flex-1 overflow-auto px-3 py-1 font-mono text-xs">
            {isTree && tree ? (
              <JsonView
                data={frame.message as object}
                // The library's dark string colour is below AA on this background.
                style={{
                  ...darkStyles,
                  container: `${darkStyles.container} json-tree`,
                  stringValue: "text-orange-300",
                }}
                shouldExpandNode={frame.raw.length < 20_000 ? allExpanded : expandNode}
              />
            ) : (
              <pre className="whitespace-pre-wrap break-all text-zinc-200">{prettyFrame(frame)}</pre>
            )}
          </div>
        </div>
        <div className="flex w-[40%] min-w-0 flex-col border-l border-zinc-800">
          <div className="px-3 pt-1.5 text-[11px] uppercase tracking-wider text-zinc-400">raw line</div>
          <pre
            data-testid="frame-raw"
            className="min-h-0 flex-1 overflow-auto whitespace-pre-wrap break-all px-3 py-1 font-mono text-xs text-zinc-300"
          >
            {frame.raw}
          </pre>
        </div>
      </div>
    </section>
  );
}
