"use client";
/** One transcript in the list: its facts, and what can be done with it. */
import Link from "next/link";
import { useState } from "react";
import { KIND_LABELS, ownerRefusal, type Me, type OwnerAction } from "@/lib/contracts/transcript-meta";
import { formatBytes } from "../format";
import { MoreMenu } from "../MoreMenu";
import type { TranscriptMeta } from "./api";
import { ConfirmDelete } from "./DeleteButton";
import { ReplayLink } from "./ReplayLink";
import { agentLabel, formatDate, plural } from "./format";
import { saveFile } from "./save-file";
import { ShareBox } from "./ShareBox";
import { TitleEditor } from "./TitleEditor";
import { OtlpStatus, useOtlpSend } from "./SendToOtlp";
import type { TranscriptsClient } from "./use-transcripts";

const action = "rounded px-1.5 py-0.5 text-zinc-300 hover:bg-zinc-800 hover:text-zinc-100 disabled:opacity-40";

/** A conversation between an editor and its agent, recorded through `acp-playground tap`. */
export function TappedBadge() {
  return (
    <span
      data-testid="tapped-badge"
      title="Recorded through acp-playground tap: an editor drove this conversation"
      className="rounded bg-sky-500/10 px-1.5 py-px text-[10px] text-sky-300 ring-1 ring-inset ring-sky-500/30"
    >
      tapped
    </span>
  );
}

export function Badges({ t }: { t: Pick<TranscriptMeta, "redactions" | "recording" | "kind" | "tapped"> }) {
  return (
    <>
      {t.tapped ? <TappedBadge /> : null}
      {t.kind && t.kind !== "tapped" ? (
        <span
          data-testid="kind-badge"
          data-kind={t.kind}
          className="rounded bg-zinc-800 px-1.5 py-px text-[10px] text-zinc-200 ring-1 ring-inset ring-zinc-600"
        >
          {KIND_LABELS[t.kind]}
        </span>
      ) : null}
      {t.recording ? (
        <span
          data-testid="recording-badge"
          className="rounded bg-red-500/15 px-1.5 py-px text-[10px] text-red-300 ring-1 ring-inset ring-red-500/30"
        >
          ● recording
        </span>
      ) : null}
      {t.redactions > 0 ? (
        <span
          data-testid="redaction-badge"
          title="Secrets were replaced with [REDACTED] before the transcript was written"
          className="rounded bg-amber-500/10 px-1.5 py-px text-[10px] text-amber-300 ring-1 ring-inset ring-amber-500/30"
        >
          {plural(t.redactions, "secret")} redacted
        </span>
      ) : null}
    </>
  );
}

interface Props {
  t: TranscriptMeta;
  client: TranscriptsClient;
  /** Who is looking (GET /api/me): another person's recording offers them no change; unknown, all (the relay decides). */
  me?: Me;
  onChange: () => Promise<void>;
  /** Picked for a diff (components/transcript-diff/), and how to pick it. */
  picked?: boolean;
  onPick?: (id: string) => void;
}

export function TranscriptRow({ t, client, me, onChange, picked, onPick }: Props) {
  const refused = (what: OwnerAction) => (me ? ownerRefusal(me, t.owner, what) : undefined);
  const shareRefused = refused("share");
  const deleteRefused = refused("delete");
  const [sharing, setSharing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const otlp = useOtlpSend(t.id, client, t.recording);
  const [error, setError] = useState<string>();
  const attempt = async (work: () => Promise<unknown>) => {
    try {
      await work();
      setError(undefined);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const href = `/transcripts/${encodeURIComponent(t.id)}`;

  return (
    <>
      <tr
        data-testid="transcript-row"
        data-id={t.id}
        className="border-b border-zinc-800/70 align-top hover:bg-zinc-900/50"
      >
        <td className="max-w-[22rem] px-3 py-2">
          <TitleEditor
            title={t.title}
            refused={refused("rename")}
            onSave={async (title) => {
              await client.rename(t.id, title);
              await onChange();
            }}
          />
          <div className="mt-0.5 flex flex-wrap items-center gap-1.5">
            <span className="font-mono text-[10px] text-zinc-400">{t.id}</span>
            <Badges t={t} />
          </div>
          {otlp ? <OtlpStatus otlp={otlp} /> : null}
          {error ? (
            <p role="alert" data-testid="row-error" className="mt-1 text-[11px] text-red-300">
              {error}
            </p>
          ) : null}
        </td>
        <td className="whitespace-nowrap px-3 py-2 text-zinc-400 tabular-nums">{formatDate(t.createdAt)}</td>
        <td className="px-3 py-2">
          <div data-testid="transcript-agent" className="text-zinc-200">
            {agentLabel(t)}
          </div>
          <div className="font-mono text-[11px] text-zinc-400">{t.profile}</div>
        </td>
        <td data-testid="transcript-turns" className="px-3 py-2 text-right tabular-nums">
          {t.turns}
        </td>
        <td data-testid="transcript-frames" className="px-3 py-2 text-right tabular-nums">
          {t.frames.toLocaleString("en")}
        </td>
        <td className="whitespace-nowrap px-3 py-2 text-right text-zinc-400 tabular-nums">{formatBytes(t.bytes)}</td>
        <td className="px-3 py-1.5">
          {/* One line: the frequent actions, the rare ones in More (docs/design.md). */}
          <div className="flex flex-nowrap items-center gap-0.5 whitespace-nowrap">
            <Link href={href} data-testid="open-transcript" className={`${action} text-sky-300`}>
              Open
            </Link>
            <ReplayLink t={t} className={action} testId="replay-transcript" />
            <button
              type="button"
              data-testid="share-transcript"
              aria-expanded={sharing}
              disabled={shareRefused !== undefined}
              title={shareRefused}
              className={`${action} ${sharing ? "bg-zinc-800 text-zinc-100" : ""}`}
              onClick={() => setSharing((s) => !s)}
            >
              Share
            </button>
            {onPick ? (
              <button
                type="button"
                data-testid="diff-pick"
                aria-pressed={!!picked}
                title="Pick two transcripts (or this one twice, for two of its turns) and Diff them"
                className={`${action} ${picked ? "bg-sky-500/15 text-sky-200" : ""}`}
                onClick={() => onPick(t.id)}
              >
                {picked ? "Picked to diff" : "Diff…"}
              </button>
            ) : null}
            {confirmDelete ? (
              <ConfirmDelete
                onCancel={() => setConfirmDelete(false)}
                onDelete={() =>
                  attempt(async () => {
                    await client.remove(t.id);
                    await onChange();
                  })
                }
              />
            ) : (
              <MoreMenu
                label={`More actions on “${t.title}”`}
                className={action}
                items={[
                  {
                    label: "Download",
                    testId: "download-transcript",
                    title: "The transcript as JSON Lines (redacted)",
                    onSelect: () =>
                      void attempt(async () => {
                        const { blob, name } = await client.download(t.id);
                        saveFile(blob, name);
                      }),
                  },
                  {
                    label: "Export HTML",
                    testId: "export-transcript",
                    title: "One HTML file that opens offline in any browser (redacted)",
                    onSelect: () =>
                      void attempt(async () => {
                        const { blob, name } = await client.exportHtml(t.id);
                        saveFile(blob, name);
                      }),
                  },
                  ...(otlp
                    ? [
                        {
                          label: `Send to ${otlp.host}`,
                          testId: "send-otlp",
                          title: otlp.title,
                          disabled: otlp.disabled,
                          onSelect: () => void otlp.send(),
                        },
                      ]
                    : []),
                  {
                    label: "Re-run against…",
                    testId: "rerun-transcript",
                    title: "Send the recorded client side to a live agent and compare",
                    href: `${href}?rerun`,
                  },
                  {
                    label: "Delete",
                    testId: "delete-transcript",
                    title: deleteRefused ?? (t.recording ? "Still being recorded" : "Delete (asks first)"),
                    disabled: t.recording || deleteRefused !== undefined,
                    danger: true,
                    onSelect: () => setConfirmDelete(true),
                  },
                ]}
              />
            )}
          </div>
        </td>
      </tr>
      {sharing ? (
        <tr className="border-b border-zinc-800/70 bg-zinc-900/40">
          <td colSpan={7} className="px-3 py-2">
            <ShareBox t={t} client={client} onChange={onChange} />
          </td>
        </tr>
      ) : null}
    </>
  );
}
