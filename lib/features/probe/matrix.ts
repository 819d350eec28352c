/**
 * The protocol matrix: several probe reports side by side, one column per
 * profile, in the spirit of the ACP registry's daily matrix (initialize, auth
 * method types, capabilities, method support) and past it (a prompt turn, a
 * tool call round trip, cancel, usage, start-up time, memory).
 */
import { display } from "../../protocol/json";
import type { MethodSupport, ProbeReport, ProbeRow } from "../../contracts/reports";
import { AGENT_METHODS, LEGACY_AGENT_METHODS } from "../../protocol/methods";
import { probeSummary } from "./summary";

export interface MatrixRow {
  label: string;
  /** One cell per report, in report order. */
  cells: string[];
}

export interface ProbeMatrix {
  /** Column heads: profile, with agent name and version when known. */
  columns: string[];
  rows: MatrixRow[];
}

/** The methods the matrix lists, the registry's first. */
export const MATRIX_METHODS = [
  AGENT_METHODS.session_list,
  AGENT_METHODS.session_fork,
  AGENT_METHODS.session_resume,
  LEGACY_AGENT_METHODS.session_set_model,
  AGENT_METHODS.session_set_mode,
  AGENT_METHODS.session_load,
  AGENT_METHODS.session_set_config_option,
  AGENT_METHODS.session_close,
  AGENT_METHODS.session_delete,
  AGENT_METHODS.authenticate,
] as const;

const SHORT: Record<MethodSupport, string> = {
  supported: "supported",
  "auth required": "auth required",
  "not found": "not found",
  other: "other",
};

const find = (r: ProbeReport, check: string) => r.rows.find((row) => row.check.startsWith(check));

/**
 * A row of either protocol: ACP's check, else the app-server's that plays its part
 * (lib/features/protocols/codex-app-server/probe-steps.ts: thread/start for session/new, turn/interrupt for cancel...).
 */
const either = (r: ProbeReport, acp: string, appServer: string) => find(r, acp) ?? find(r, appServer);

/** Which protocol a report's agent speaks: its app-server part says so (reports from before are ACP's). */
const protocolOfReport = (r: ProbeReport) =>
  r.conformance?.parts.some((p) => p.variant === "app-server") ? "Codex app-server" : "ACP";

const outcomeCell = (row: ProbeRow | undefined): string => {
  if (!row) return "—";
  if (row.outcome === "not applicable" || row.outcome === "inconclusive" || row.outcome === "skipped")
    return row.outcome;
  if (row.conforms === undefined) return row.outcome;
  return row.conforms ? `✓ ${row.outcome}` : `✗ ${row.outcome}`;
};

const methodCell = (r: ProbeReport, method: string): string => {
  const row = r.rows.find((x) => x.method === method && x.support !== undefined);
  if (!row) {
    const na = r.rows.find((x) => x.method === method && x.outcome === "not applicable");
    return na ? "not applicable" : "—";
  }
  return SHORT[row.support!];
};

/** `ACP-LOAD-001 (CAPABILITY)`, each part's failures, v1 unstable marked as such; "none". */
const failing = (r: ProbeReport): string => {
  if (!r.conformance) return "—";
  const ids = r.conformance.parts.flatMap((p) =>
    p.requirements
      .filter((q) => q.status === "fail" || (p.decides && q.tier === "MANDATORY" && q.status === "not tested"))
      .map(
        (q) =>
          `${q.id} (${q.tier}${p.variant === "v1" ? "" : `, ${p.variant}`}${q.status === "fail" ? "" : `, ${q.status}`})`,
      ),
  );
  const blocked = r.conformance.parts.some((p) => p.blockedByAuth) ? ["blocked by auth"] : [];
  return list([...ids, ...blocked]);
};

const mb = (bytes: number | undefined) => (bytes === undefined ? "—" : `${Math.round(bytes / (1024 * 1024))} MB`);
const ms = (n: number | undefined) => (n === undefined ? "—" : `${Math.round(n)} ms`);
const list = (xs: readonly string[] | undefined) => (xs && xs.length ? xs.join(", ") : "none");

export function buildMatrix(reports: readonly ProbeReport[]): ProbeMatrix {
  const columns = reports.map(
    (r) => `${r.profile}${r.agent?.name ? ` (${r.agent.name}${r.agent.version ? ` ${r.agent.version}` : ""})` : ""}`,
  );
  const per = (label: string, cell: (r: ProbeReport) => string): MatrixRow => ({ label, cells: reports.map(cell) });
  const caps = (r: ProbeReport) => r.facts?.agentCapabilities ?? {};
  const prompt = (r: ProbeReport) => (caps(r).promptCapabilities ?? {}) as Record<string, unknown>;
  return {
    columns,
    rows: [
      per("verdict", (r) => probeSummary(r)?.label ?? "—"),
      per("protocol", protocolOfReport),
      per("failing requirements", failing),
      per(AGENT_METHODS.initialize, (r) =>
        outcomeCell(find(r, "initialize with protocolVersion 1") ?? r.rows.find((x) => x.check === "initialize")),
      ),
      per("protocol version", (r) => (r.facts?.protocolVersion === undefined ? "—" : display(r.facts.protocolVersion))),
      per("auth method types", (r) => list([...new Set(r.facts?.authMethods.map((m) => m.type))])),
      per("loadSession", (r) => (caps(r).loadSession === true ? "yes" : "no")),
      per("prompt capabilities", (r) =>
        list(["image", "audio", "embeddedContext"].filter((k) => prompt(r)[k] === true)),
      ),
      per("session capabilities", (r) => list(r.facts?.sessionCapabilities)),
      per(AGENT_METHODS.session_new, (r) => outcomeCell(either(r, AGENT_METHODS.session_new, "thread/start"))),
      ...MATRIX_METHODS.map((m) => per(m, (r) => methodCell(r, m))),
      per("prompt turn", (r) => outcomeCell(either(r, AGENT_METHODS.session_prompt, "turn/start"))),
      per("tool call round trip", (r) => outcomeCell(either(r, "tool call round trip", "approval round trip"))),
      per("agent requests answered", (r) =>
        list([...new Set(r.facts?.answered.map((a) => `${a.method}: ${a.answer}`))]),
      ),
      per("cancel", (r) => outcomeCell(either(r, AGENT_METHODS.session_cancel, "turn/interrupt"))),
      per("usage reported", (r) => list(r.facts?.usage)),
      per(
        "malformed line → -32700 (informational)",
        (r) => either(r, "malformed line", "a malformed line")?.outcome ?? "—",
      ),
      per("start-up (to first answer)", (r) => ms(r.facts?.startupMs)),
      per("memory (process group RSS)", (r) => mb(r.facts?.rssBytes)),
    ],
  };
}

const cell = (s: string) => s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

export function matrixToMarkdown(matrix: ProbeMatrix): string {
  const head = `| | ${matrix.columns.map(cell).join(" | ")} |`;
  const rule = `|---|${matrix.columns.map(() => "---").join("|")}|`;
  const body = matrix.rows.map((r) => `| ${cell(r.label)} | ${r.cells.map(cell).join(" | ")} |`);
  return `${[head, rule, ...body].join("\n")}\n`;
}

/** JSON export: the table and the reports it was built from. */
export const matrixToJson = (reports: readonly ProbeReport[]): string =>
  `${JSON.stringify({ matrix: buildMatrix(reports), reports }, null, 2)}\n`;
