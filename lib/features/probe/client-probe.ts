/**
 * The client probe (`acp-playground probe-client`): the requirements an ACP client is
 * judged by when the probe plays its agent, the update samples it streams, and its report
 * (the kit's verdict rule, lib/contracts/requirements.ts; JSON and Markdown). The script
 * that exercises a client is server/cli/probe-client.ts.
 */
import { judge, type CheckResult, type Conformance, type Requirement } from "../../contracts/requirements";
import { isObject } from "../../protocol/json";
import { printable } from "../library/validate-report";

const DOCS = "docs/protocol/v1";

export const CLIENT_REQUIREMENTS = [
  {
    id: "PG-CLIENT-001",
    tier: "MANDATORY",
    citation: `${DOCS}/initialization.mdx`,
    title: "The client calls initialize before any other request",
  },
  {
    id: "PG-CLIENT-002",
    tier: "MANDATORY",
    citation: `${DOCS}/initialization.mdx#version-negotiation`,
    title: "initialize carries the latest protocol version the client supports (an integer)",
  },
  {
    id: "PG-CLIENT-003",
    tier: "ADVISORY",
    citation: `${DOCS}/initialization.mdx#implementation-information`,
    title: "The client names itself (clientInfo with name and version)",
  },
  {
    id: "PG-CLIENT-004",
    tier: "MANDATORY",
    citation: `${DOCS}/session-setup.mdx#working-directory`,
    title: "session/new's cwd is an absolute path",
  },
  {
    id: "PG-CLIENT-005",
    tier: "MANDATORY",
    citation: `${DOCS}/transports.mdx#stdio`,
    title: "Every line the client writes is a valid ACP message that matches its schema",
  },
  {
    id: "PG-CLIENT-006",
    tier: "MANDATORY",
    citation: `${DOCS}/tool-calls.mdx#requesting-permission`,
    title: "The client answers session/request_permission with one of the offered options, or cancelled",
  },
  {
    id: "PG-CLIENT-007",
    tier: "MANDATORY",
    citation: `${DOCS}/extensibility.mdx#custom-requests`,
    title: "The client answers a request it does not know (an `_` extension method) with an error, by its id",
  },
  {
    id: "PG-CLIENT-008",
    tier: "ADVISORY",
    citation: `${DOCS}/extensibility.mdx#custom-notifications`,
    title: "The client ignores a notification it does not know and goes on",
  },
  {
    id: "PG-CLIENT-009",
    tier: "INFORMATIONAL",
    citation: "schema/schema.json#SessionUpdate",
    title: "The client goes on after a session/update of every stable kind",
    note: "The spec asks nothing of a client here; a client that stops answering after an update it does not show is worth knowing.",
  },
  {
    id: "PG-CLIENT-010",
    tier: "INFORMATIONAL",
    citation: `${DOCS}/transports.mdx#stdio`,
    title: "The client answers a malformed line with -32700 (Parse error) and goes on",
    note: "ACP v1 lists -32700 but does not require an answer; the ACP test kit records it as informational too.",
  },
  {
    id: "PG-CLIENT-011",
    tier: "INFORMATIONAL",
    citation: `${DOCS}/transports.mdx#stdio`,
    title: "The client takes a large message (a 1 MiB update) and goes on",
  },
  {
    id: "PG-CLIENT-012",
    tier: "CAPABILITY",
    capability: "fs.readTextFile",
    citation: `${DOCS}/file-system.mdx#reading-files`,
    title: "fs/read_text_file returns the content of a file in the session's cwd",
  },
  {
    id: "PG-CLIENT-013",
    tier: "CAPABILITY",
    capability: "fs.writeTextFile",
    citation: `${DOCS}/file-system.mdx#writing-files`,
    title: "fs/write_text_file creates a file in the session's cwd with the content given",
  },
  {
    id: "PG-CLIENT-014",
    tier: "INFORMATIONAL",
    citation: `${DOCS}/file-system.mdx`,
    title: "fs requests for a path outside the session's cwd: refused or served",
    note: "The spec does not confine fs requests to the cwd; what the client does is reported, never judged.",
  },
  {
    id: "PG-CLIENT-015",
    tier: "CAPABILITY",
    capability: "terminal",
    citation: `${DOCS}/terminals.mdx#executing-commands`,
    title: "A terminal runs a command: create, wait_for_exit (exit code), output, release",
  },
  {
    id: "PG-CLIENT-016",
    tier: "CAPABILITY",
    capability: "terminal",
    citation: `${DOCS}/terminals.mdx#killing-commands`,
    title: "terminal/kill stops a running command; wait_for_exit then returns; release",
  },
  {
    id: "PG-CLIENT-017",
    tier: "MANDATORY",
    citation: `${DOCS}/cancellation.mdx#cancel_request-notification`,
    title: "After $/cancel_request, the client still answers the request (its result, or error -32800)",
  },
  {
    id: "PG-CLIENT-018",
    tier: "MANDATORY",
    citation: `${DOCS}/prompt-turn.mdx#cancellation`,
    title: "After session/cancel, the client answers pending permission requests with the cancelled outcome",
  },
  {
    id: "PG-CLIENT-019",
    tier: "CAPABILITY",
    capability: "elicitation.form",
    citation: `${DOCS}/elicitation.mdx`,
    title: "The client answers a form elicitation with accept, decline or cancel",
  },
] as const satisfies readonly Requirement[];

export type ClientRequirementId = (typeof CLIENT_REQUIREMENTS)[number]["id"];

/** One of every stable `session/update` kind (the probe streams them in its turn). */
export const STABLE_UPDATE_SAMPLES: readonly Record<string, unknown>[] = [
  { sessionUpdate: "user_message_chunk", content: { type: "text", text: "An earlier question" } },
  { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Which kinds are there?" } },
  {
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: "The client probe streams every update kind. " },
  },
  { sessionUpdate: "plan", entries: [{ content: "Stream every kind", priority: "high", status: "in_progress" }] },
  {
    sessionUpdate: "tool_call",
    toolCallId: "probe-tool-1",
    title: "Look around",
    kind: "search",
    status: "in_progress",
  },
  {
    sessionUpdate: "tool_call_update",
    toolCallId: "probe-tool-1",
    status: "completed",
    content: [{ type: "content", content: { type: "text", text: "nothing to see" } }],
  },
  { sessionUpdate: "available_commands_update", availableCommands: [{ name: "explain", description: "Explain" }] },
  { sessionUpdate: "current_mode_update", currentModeId: "probe" },
  {
    sessionUpdate: "config_option_update",
    configOptions: [
      {
        type: "select",
        id: "model",
        name: "Model",
        currentValue: "fast",
        options: [
          { value: "fast", name: "Fast" },
          { value: "deep", name: "Deep" },
        ],
      },
    ],
  },
  { sessionUpdate: "session_info_update", title: "ACP client probe" },
  { sessionUpdate: "usage_update", used: 1000, size: 200000 },
  { sessionUpdate: "notice", severity: "info", title: "Probe", description: "every update kind" },
  { sessionUpdate: "compaction_update", compactionId: "probe-compaction", status: "completed" },
  {
    sessionUpdate: "compaction_summary_chunk",
    compactionId: "probe-compaction",
    content: { type: "text", text: "Nothing to compact." },
  },
];

/** Whether the client advertised a capability (a path under clientCapabilities: `true`, or an object for elicitation modes). */
export function clientAdvertised(capabilities: unknown, path: string): boolean {
  let value: unknown = capabilities;
  for (const key of path.split(".")) value = isObject(value) ? value[key] : undefined;
  return value === true || (path.startsWith("elicitation.") && isObject(value));
}

export interface EvidenceFrame {
  seq: number;
  dir: "to-agent" | "from-agent";
  /** The line, cut at 2,000 characters. */
  raw: string;
}

export interface ClientProbeReport extends Conformance {
  format: "acp-playground-client-probe-report";
  version: "1.0";
  startedAt: string;
  durationMs: number;
  client: { clientInfo?: unknown; protocolVersion?: unknown; clientCapabilities?: unknown; cwd?: string };
  /** The frames failing checks name. */
  evidence: EvidenceFrame[];
  /** The transcript of the probe's conversation (its frames' seqs are the ones named here). */
  transcriptId?: string;
}

export function clientProbeReport(
  checks: readonly CheckResult[],
  facts: { startedAt: number; endedAt: number; client: ClientProbeReport["client"] },
  frames: readonly EvidenceFrame[],
): ClientProbeReport {
  const caps = facts.client.clientCapabilities;
  const conformance = judge(CLIENT_REQUIREMENTS, checks, {
    advertised: (path) => clientAdvertised(caps, path),
    blockedByAuth: false,
  });
  const cited = new Set(
    conformance.requirements.flatMap((r) => r.checks.filter((c) => c.status === "fail").flatMap((c) => c.frames ?? [])),
  );
  return {
    format: "acp-playground-client-probe-report",
    version: "1.0",
    startedAt: new Date(facts.startedAt).toISOString(),
    durationMs: Math.round(facts.endedAt - facts.startedAt),
    client: facts.client,
    ...conformance,
    evidence: frames.filter((f) => cited.has(f.seq)).map((f) => ({ ...f, raw: f.raw.slice(0, 2000) })),
  };
}

const cell = (s: string) => printable(s).replace(/\|/g, "\\|").replace(/\n/g, " ");

export function clientProbeMarkdown(report: ClientProbeReport): string {
  const info = isObject(report.client.clientInfo) ? report.client.clientInfo : {};
  const name = `${typeof info.name === "string" ? info.name : "unnamed client"}${typeof info.version === "string" ? ` ${info.version}` : ""}`;
  const lines = [
    `# ACP client probe: ${cell(name)}`,
    "",
    `**${report.verdict}**${report.reasons.length ? ` (${report.reasons.map(cell).join(", ")})` : ""}`,
    "",
    `Started ${report.startedAt}, ${report.durationMs} ms. Client capabilities: \`${cell(JSON.stringify(report.client.clientCapabilities ?? null))}\`.`,
    "",
    "| tier | pass | fail | skipped | not tested | not applicable |",
    "| --- | --- | --- | --- | --- | --- |",
    ...Object.entries(report.counts).map(
      ([tier, c]) => `| ${tier} | ${c.pass} | ${c.fail} | ${c.skipped} | ${c["not tested"]} | ${c["not applicable"]} |`,
    ),
    "",
    "| requirement | tier | status | what was seen |",
    "| --- | --- | --- | --- |",
    ...report.requirements.map(
      (r) =>
        `| ${r.id} [${cell(r.title)}](${r.citation}) | ${r.tier} | ${r.status} | ${cell(
          r.checks.map((c) => `${c.detail}${c.frames?.length ? ` (frames ${c.frames.join(", ")})` : ""}`).join("; "),
        )} |`,
    ),
  ];
  if (report.evidence.length) {
    lines.push("", "## Frames of the failures", "");
    for (const f of report.evidence) lines.push(`- ${f.seq} ${f.dir}: \`${cell(f.raw.slice(0, 300))}\``);
  }
  return `${lines.join("\n")}\n`;
}
