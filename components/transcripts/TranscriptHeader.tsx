"use client";
/** What was recorded and how: the agent (as it described itself), profile, command, date, and notices. */
import { display } from "@/lib/protocol/json";
import type { ReactNode } from "react";
import type { AgentInfoEvent, TranscriptHeader as Header } from "@/lib/contracts/transcript";
import { formatDate, plural } from "./format";
import { TappedBadge } from "./TranscriptRow";

interface Props {
  header: Header;
  agentInfo?: AgentInfoEvent;
  redactions: number;
  truncated: boolean;
  /** Actions (download, re-run...) at the right. */
  children?: ReactNode;
}

function agentLabel(info: AgentInfoEvent | undefined): string | undefined {
  const a = info?.agentInfo as { name?: unknown; title?: unknown; version?: unknown } | undefined;
  if (!a) return undefined;
  const name = typeof a.title === "string" ? a.title : typeof a.name === "string" ? a.name : "agent";
  return typeof a.version === "string" ? `${name} ${a.version}` : name;
}

const Fact = ({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) => (
  <div className="flex min-w-0 items-baseline gap-1.5">
    <dt className="shrink-0 text-[10px] uppercase tracking-wider text-zinc-400">{label}</dt>
    <dd data-testid={testId} className="min-w-0 truncate text-zinc-200">
      {children}
    </dd>
  </div>
);

export function TranscriptHeader({ header, agentInfo, redactions, truncated, children }: Props) {
  const agent = agentLabel(agentInfo);
  const command = [header.agent.command, ...header.agent.args].join(" ");
  return (
    <section
      data-testid="transcript-header"
      aria-label="Transcript"
      className="flex flex-col gap-1.5 border-b border-zinc-800 px-3 py-2 text-xs"
    >
      <div className="flex items-center gap-3">
        <h2 data-testid="viewer-title" className="truncate text-sm font-semibold text-zinc-100">
          {header.title ?? header.id}
        </h2>
        <span className="font-mono text-[10px] text-zinc-400">{header.id}</span>
        {header.tapped ? <TappedBadge /> : null}
        <div className="ml-auto flex items-center gap-1">{children}</div>
      </div>
      <dl className="flex flex-wrap gap-x-5 gap-y-1">
        <Fact label="agent" testId="viewer-agent">
          {agent ?? "—"}
          {agentInfo?.protocolVersion !== undefined ? (
            <span className="ml-1 text-zinc-400">(ACP v{display(agentInfo.protocolVersion)})</span>
          ) : null}
        </Fact>
        <Fact label="profile" testId="viewer-profile">
          <code>{header.agent.profile}</code>
        </Fact>
        <Fact label="command">
          <code title={command}>{command}</code>
        </Fact>
        <Fact label="cwd">
          <code>{header.agent.cwd}</code>
        </Fact>
        <Fact label="created" testId="viewer-created">
          {formatDate(header.createdAt)}
        </Fact>
      </dl>
      {redactions > 0 ? (
        <p data-testid="redaction-notice" className="text-amber-300">
          {plural(redactions, "secret was", "secrets were")} redacted before this transcript was written.
        </p>
      ) : null}
      {truncated ? (
        <p data-testid="truncated-notice" className="text-amber-300">
          Truncated: the last line was cut off (the recording stopped mid-write), so it is not shown.
        </p>
      ) : null}
    </section>
  );
}
