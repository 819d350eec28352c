/**
 * The conformance probe: a scripted battery of ACP calls against a fresh agent,
 * reporting what the agent actually did for each. Pure: it talks through a
 * Driver that the server or CLI provides.
 */
import { type Policies } from "../answers/policy";
import { ANSWERABLE_METHODS } from "../../contracts/policies";
import { updateUsageOf, turnUsageOf } from "../../folds/turn-usage";
import { isObject } from "../../protocol/json";
import type { ProbeConformance, ProbeFacts, ProbeReport, ProbeRow, VariantConformance } from "../../contracts/reports";
import { judge, type CheckResult } from "../../contracts/requirements";
import { CLIENT_METHODS } from "../../protocol/methods";
import { advertisedIn, messageOf, ProbeContext, type Driver, type Json, type ProbeOptions } from "./context";
import { answersIn, STEPS } from "./steps";
import { STABLE_REQUIREMENTS, UNSTABLE_REQUIREMENTS } from "./requirements";
import { requirementLines, verdictLine } from "./export";

export type { Driver, ProbeOptions, Reply } from "./context";
export { PROBE_DIRECTORIES } from "./context";
export { supportOf } from "./context";
export { STARTUP_ALLOWANCE } from "./steps";

/**
 * The probe's own policy: allow once, and carry out fs/ requests (the server
 * confines them to a throw-away workspace); terminal/ ones only when terminals
 * are on, else they are refused.
 */
export function probePolicies(terminals: boolean): Policies {
  return Object.fromEntries(
    ANSWERABLE_METHODS.map((m) => [m, m.startsWith("terminal/") && !terminals ? "deny" : "auto"]),
  );
}

/**
 * Whether the probe carries out the agent's terminal requests: only when asked
 * for, for an agent that runs on this machine, with a profile that advertises
 * terminals; `why` says so in the report.
 */
export function probeTerminals(options: Pick<ProbeOptions, "terminals" | "remote" | "clientCapabilities">): {
  on: boolean;
  why: string;
} {
  if (!options.terminals) return { on: false, why: "terminals off: not opted in" };
  if (options.remote)
    return { on: false, why: "terminals off: the agent does not run on this machine, its commands never run here" };
  if (options.clientCapabilities && options.clientCapabilities.terminal !== true)
    return { on: false, why: "terminals off: the profile does not advertise clientCapabilities.terminal" };
  return { on: true, why: "terminals on: commands run as this user, in the throw-away workspace" };
}

/** A command line as a shell would read it back: `sh -c 'id > f'`. */
export function commandLine(command: string, args: readonly unknown[] = []): string {
  return [command, ...args.map(String)]
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`))
    .join(" ");
}

/**
 * Judges the checks by requirement, each schema variant apart: v1 stable
 * decides the verdict; v1 unstable is reported beside it and never decides.
 * (The probe asks for version 1, so v2 is never negotiated here.)
 */
export function probeConformance(
  checks: readonly CheckResult[],
  context: { init?: Json; session?: Json; blockedByAuth: boolean },
): ProbeConformance {
  const advertised = (capability: string) => advertisedIn(context.init, context.session, capability);
  const parts: VariantConformance[] = [
    {
      variant: "v1",
      decides: true,
      ...judge(STABLE_REQUIREMENTS, checks, { advertised, blockedByAuth: context.blockedByAuth }),
    },
    {
      variant: "v1 unstable",
      decides: false,
      ...judge(UNSTABLE_REQUIREMENTS, checks, { advertised, blockedByAuth: context.blockedByAuth }),
    },
  ];
  return {
    verdict: parts.some((p) => p.decides && p.verdict === "NOT CONFORMANT") ? "NOT CONFORMANT" : "CONFORMANT",
    parts,
  };
}

export interface ProbeResult {
  rows: ProbeRow[];
  facts: ProbeFacts;
  checks: CheckResult[];
  conformance: ProbeConformance;
  /** The agent as it named itself, where the protocol's own answer is not ACP's agentInfo. */
  agent?: { name?: string; version?: string };
}

/**
 * ACP's probe (its spec's, lib/features/protocols/acp/spec.ts; `runProbe` in the registry runs any
 * protocol's): runs the steps in order (lib/features/probe/steps.ts) and judges what they saw.
 */
export async function runAcpProbe(driver: Driver, options: ProbeOptions): Promise<ProbeResult> {
  const terminals = probeTerminals(options);
  driver.answerWith(probePolicies(terminals.on));
  const ctx = new ProbeContext(driver, options, terminals);
  for (const step of STEPS) await step.run(ctx);

  const all = ctx.parsed();
  const usage = new Set<string>();
  for (const f of all) {
    if (f.dir !== "from-agent") continue;
    const m = messageOf(f);
    if (f.kind === "response" && m?.result) {
      const u = turnUsageOf(m.result);
      if (u) usage.add(u.source);
    }
    if (f.method === CLIENT_METHODS.session_update) {
      const u = updateUsageOf(m?.params?.update);
      if (u) usage.add(u.source);
    }
  }
  const answers = answersIn(all);
  const answered = answers.map(({ method, answer }) => ({ method, answer }));
  // What ran on this machine for the agent: every terminal/create the probe carried out.
  const commands = answers
    .filter((a) => a.method === CLIENT_METHODS.terminal_create && a.params)
    .map((a) => {
      const p = a.params!;
      const line = commandLine(String(p.command), Array.isArray(p.args) ? p.args : []);
      return typeof p.cwd === "string" ? `${line} (in ${p.cwd})` : line;
    });
  const refused = answered.filter((a) => a.method === CLIENT_METHODS.terminal_create && a.answer.startsWith("error"));
  ctx.push({
    check: "terminal commands run by the probe",
    method: CLIENT_METHODS.terminal_create,
    outcome: terminals.on ? "answered" : "skipped",
    detail: [
      terminals.why,
      commands.length ? `ran ${commands.length}: ${commands.join("; ")}` : "ran none",
      ...(refused.length ? [`refused ${refused.length}`] : []),
    ]
      .join(", ")
      .slice(0, 1_000),
  });
  const byMethod = new Map<string, string[]>();
  for (const a of answered) byMethod.set(a.method, [...(byMethod.get(a.method) ?? []), a.answer]);
  for (const [method, list] of byMethod)
    ctx.push({
      check: `agent request ${method}, answered by the probe`,
      method,
      outcome: "answered",
      detail: `${list.length}×: ${[...new Set(list)].join("; ")}`.slice(0, 200),
    });

  const init = ctx.init;
  const agentCaps = isObject(init?.agentCapabilities) ? init.agentCapabilities : undefined;
  const sessionCaps = isObject(agentCaps?.sessionCapabilities) ? agentCaps.sessionCapabilities : {};
  const modes = isObject(ctx.session?.modes) ? ctx.session.modes : {};
  const models = isObject(ctx.session?.models) ? ctx.session.models : {};
  const idsOf = (list: unknown, key: string) =>
    (Array.isArray(list) ? list : [])
      .map((m) => (isObject(m) ? m[key] : undefined))
      .filter((id): id is string => typeof id === "string");
  return {
    rows: ctx.rows,
    checks: ctx.checks,
    conformance: probeConformance(ctx.checks, ctx),
    facts: {
      protocolVersion: init?.protocolVersion,
      authMethods: (Array.isArray(init?.authMethods) ? init.authMethods : [])
        .filter(isObject)
        .map((m) => ({ id: String(m.id), type: typeof m.type === "string" ? m.type : "agent" })),
      agentCapabilities: agentCaps,
      sessionCapabilities: Object.keys(sessionCaps).filter((k) => k !== "_meta" && sessionCaps[k] != null),
      modes: idsOf(modes.availableModes, "id"),
      models: idsOf(models.availableModels, "modelId"),
      usage: [...usage],
      answered,
      terminals,
      commands,
    },
  };
}

/** A plain-text table of a report (CLI output, export). */
export function formatReport(report: ProbeReport): string {
  const head = `Probe of ${report.profile}${report.agent?.name ? ` (${report.agent.name} ${report.agent.version ?? ""})` : ""}, ${report.rows.length} checks in ${(report.durationMs / 1000).toFixed(1)} s`;
  const lines = report.rows.map((r) => {
    const mark = r.conforms === undefined ? " " : r.conforms ? "✓" : "✗";
    const latency = r.latencyMs === undefined ? "" : `${r.latencyMs} ms`;
    return `${mark} ${r.check.padEnd(52)} ${r.outcome.padEnd(9)} ${latency.padStart(8)}  ${r.detail}`;
  });
  const verdict = verdictLine(report);
  return [head, ...(verdict ? [verdict] : []), "", ...lines, ...requirementLines(report)].join("\n");
}

/**
 * A detail without what differs on every run: UUIDs, session and tool call
 * ids, generated tokens, timestamps and durations (by shape, not by key).
 */
export function stableDetail(detail: string): string {
  return detail
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})?/g, "<time>")
    .replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, "<duration>")
    .replace(/\b(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{12,}\b/gi, "<id>")
    .replace(/\b[0-9a-f]{8,}\b/gi, "<id>");
}

export interface ReportDifference {
  check: string;
  a?: ProbeRow;
  b?: ProbeRow;
  same: boolean;
  /** What differs: "missing", "outcome", "conforms", "support", "detail". */
  differs: string[];
}

/** Side-by-side comparison of two reports, by check, ignoring values that change on every run. */
export function compareReports(a: ProbeReport, b: ProbeReport): ReportDifference[] {
  const names = [...new Set([...a.rows.map((r) => r.check), ...b.rows.map((r) => r.check)])];
  return names.map((check) => {
    const ra = a.rows.find((r) => r.check === check);
    const rb = b.rows.find((r) => r.check === check);
    const differs: string[] = [];
    if (!ra || !rb) differs.push("missing");
    else {
      if (ra.outcome !== rb.outcome) differs.push("outcome");
      if (ra.conforms !== rb.conforms) differs.push("conforms");
      if (ra.support !== rb.support) differs.push("support");
      if (stableDetail(ra.detail) !== stableDetail(rb.detail)) differs.push("detail");
    }
    return { check, a: ra, b: rb, same: differs.length === 0, differs };
  });
}
