/**
 * `acp-playground validate`: a recording (transcript, tapped conversation, or a raw NDJSON
 * capture of one side) judged by the rules it can show (lib/folds/recording-rules.ts) and
 * its protocol's schema (ACP's: lib/protocol/schema-check.ts; the app-server's:
 * lib/protocol/schema-app-server.ts), as requirement results with the kit's verdict
 * rule (lib/contracts/requirements.ts); printed as text, JSON or JUnit XML.
 */
import { judge, type CheckResult, type Conformance, type RequirementResult } from "../../contracts/requirements";
import type { Frame, FrameDirection } from "../../protocol/frame";
import { isObject } from "../../protocol/json";
import { AGENT_METHODS } from "../../protocol/methods";
import { negotiatedV2, type SchemaSet, type SchemaVerdict } from "../../protocol/schema-check";
import { batchParts } from "../../folds/acp-v2/batches";
import type { AppServerSchema } from "../../protocol/schema-app-server";
import { RecordingRules, RECORDING_REQUIREMENTS, type RecordingRuleId } from "../../folds/recording-rules";
import { ACP_NOTIFICATIONS, ACP_REQUESTS } from "../../folds/static-checks";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { classifyLine } from "../../protocol/frame";
import type { LineEvent } from "../../protocol/ndjson";
import type { Transcript } from "../../contracts/transcript";
import { descriptorOf, protocolOf, type ProtocolName } from "../../protocol/protocols";

export const VALIDATE_REPORT_FORMAT = "acp-playground-validate-report";
export const VALIDATE_REPORT_VERSION = "1.0";
/** Failures listed per requirement; the rest are counted in one more line. */
const MAX_FAILURES = 100;

export type RecordingKind = "transcript" | "tapped" | "capture";

export interface Recording {
  /** The file's name, as given. */
  file: string;
  kind: RecordingKind;
  /** In recorded order, parsed again from `raw` (never the file's own labels). */
  frames: Frame[];
  /** The directions it holds: a capture holds one. */
  sides: ReadonlySet<FrameDirection>;
  /** The client stopped the agent, or the recording was cut (capped, still recording): open turns are not judged. */
  stopped: boolean;
  /** The protocol spoken (a transcript's header says; absent: ACP, as a raw capture is read). */
  protocol?: ProtocolName;
}

export interface FileVerdict extends Conformance {
  file: string;
  kind: RecordingKind;
  frames: number;
}

export interface ValidateReport {
  format: typeof VALIDATE_REPORT_FORMAT;
  version: typeof VALIDATE_REPORT_VERSION;
  verdict: Conformance["verdict"];
  files: FileVerdict[];
}

/** A fixed clock: a recording's frames keep the times they were recorded with. */
const NO_CLOCK = { wall: () => 0, mono: () => 0 };

/**
 * A transcript's frames made again from their `raw` (and `rawBase64`) by the one sequencer:
 * what the file claims of a frame (kind, method, pairing) is not taken on trust.
 */
export function recordingFromTranscript(
  file: string,
  transcript: Pick<Transcript, "header" | "events" | "truncated">,
): Recording {
  const protocol = protocolOf(transcript.header.agent);
  const sequencer = new FrameSequencer(NO_CLOCK, protocol);
  const frames: Frame[] = [];
  const sides = new Set<FrameDirection>(["to-agent", "from-agent"]);
  let exited = false;
  let stopped = transcript.truncated;
  for (const e of transcript.events) {
    if (e.type === "frame") frames.push({ ...sequencer.line(e.dir, e.raw, e.rawBase64), seq: e.seq, ts: e.ts });
    else if (e.type === "lifecycle") {
      if (e.event === "stopping" || e.event === "capped") stopped = true;
      if (e.event === "exited") exited = true;
    }
  }
  const kind = transcript.header.tapped ? "tapped" : "transcript";
  // Still recording (no exit yet): its open turn may yet end.
  return { file, kind, frames, sides, stopped: stopped || !exited, protocol };
}

/**
 * Which side wrote a capture: the one whose requests and notifications it holds (by the
 * protocol's directions), the agent's stdout when it cannot tell.
 */
export function captureSide(lines: readonly LineEvent[]): FrameDirection {
  let toAgent = 0;
  let fromAgent = 0;
  for (const line of lines) {
    if (line.type !== "line" || line.base64 !== undefined) continue;
    const c = classifyLine(line.text);
    if ((c.kind !== "request" && c.kind !== "notification") || c.method === undefined) continue;
    const dir = Object.hasOwn(ACP_REQUESTS, c.method)
      ? ACP_REQUESTS[c.method]
      : Object.hasOwn(ACP_NOTIFICATIONS, c.method)
        ? ACP_NOTIFICATIONS[c.method]
        : undefined;
    if (dir === "to-agent") toAgent++;
    else if (dir === "from-agent") fromAgent++;
  }
  return toAgent > fromAgent ? "to-agent" : "from-agent";
}

/** A raw NDJSON capture of one side (the agent's stdout, or what a client wrote to its stdin). */
export function recordingFromCapture(file: string, lines: readonly LineEvent[], dir: FrameDirection): Recording {
  const sequencer = new FrameSequencer(NO_CLOCK);
  const frames = lines.map((line) =>
    line.type === "line"
      ? sequencer.line(dir, line.text, line.base64)
      : sequencer.invalid(dir, line.preview, `line of ${line.bytes} bytes is longer than validate reads`),
  );
  return { file, kind: "capture", frames, sides: new Set([dir]), stopped: false };
}

/** The schemas a recording is judged by, by the descriptor's `schema` key (each loaded by the caller). */
export interface RecordingSchemas {
  acp?: SchemaSet;
  appServer?: AppServerSchema;
}

/** Judges one recording. Without its protocol's schema, the schema requirement is skipped. */
export function validateRecording(recording: Recording, schemas: RecordingSchemas = {}): FileVerdict {
  const { frames } = recording;
  const first = frames[0];
  const fromStart =
    first !== undefined &&
    first.dir === "to-agent" &&
    first.kind === "request" &&
    first.method === AGENT_METHODS.initialize;
  const protocol = protocolOf(recording);
  const rules = new RecordingRules({ sides: recording.sides, fromStart, protocol });
  // Each protocol's frames by its own schema (its descriptor names which), never by another's.
  const schema = descriptorOf(protocol).schema;
  const acp = schema === "acpSdk" ? schemas.acp : undefined;
  const appServer = schema === "appServer" ? schemas.appServer : undefined;
  const schemaLoaded = acp !== undefined || appServer !== undefined;
  const bySeq = new Map<number, Frame>();
  const checks: CheckResult[] = [];
  let v2 = false;
  let schemaJudged = 0;
  for (const whole of frames) {
    bySeq.set(whole.seq, whole);
    // v2 has JSON-RPC batches: each part is judged as a message of its own.
    for (const frame of v2 ? batchParts(whole) : [whole]) {
      rules.add(frame);
      if (frame.kind === "response" && frame.method === AGENT_METHODS.initialize && isObject(frame.message))
        v2 = negotiatedV2(frame.message.result);
      const verdict: SchemaVerdict | undefined = acp ? acp.check(frame, { v2 }) : appServer?.check(frame);
      if (!verdict) continue;
      schemaJudged++;
      if (verdict.issues.length === 0) continue;
      const what = frame.method ?? frame.kind;
      const issues = verdict.issues.map((i) => `${i.path || "value"}: ${i.message}`).join("; ");
      checks.push({
        requirement: "PG-REC-003",
        status: "fail",
        // The app-server has one schema: no variant to name.
        detail: `${what}${acp && verdict.variant ? ` (${verdict.variant})` : ""}: ${issues}`,
        frames: [frame.seq],
      });
    }
  }
  rules.finish({ stopped: recording.stopped }, (seq) => bySeq.get(seq));

  const failures = new Map<RecordingRuleId, CheckResult[]>();
  for (const f of rules.findings) {
    const list = failures.get(f.requirement) ?? [];
    list.push({ requirement: f.requirement, status: "fail", detail: f.message, frames: f.frames });
    failures.set(f.requirement, list);
  }
  failures.set("PG-REC-003", checks);
  const results: CheckResult[] = [];
  for (const r of RECORDING_REQUIREMENTS) {
    const failed = failures.get(r.id) ?? [];
    const judged = r.id === "PG-REC-003" ? schemaJudged : rules.judged(r.id);
    if (failed.length > 0) {
      results.push(...failed.slice(0, MAX_FAILURES));
      if (failed.length > MAX_FAILURES)
        results.push({ requirement: r.id, status: "fail", detail: `... and ${failed.length - MAX_FAILURES} more` });
    } else if (judged > 0) {
      results.push({ requirement: r.id, status: "pass", detail: `${judged} frame${judged === 1 ? "" : "s"} judged` });
    } else {
      results.push({
        requirement: r.id,
        status: "skip",
        detail:
          r.id === "PG-REC-003" && !schemaLoaded
            ? `the ${descriptorOf(protocol).label} schema was not loaded`
            : "nothing in this recording shows it (one side only, or no such frames)",
      });
    }
  }
  // Every requirement has a check (pass, fail or skip): "not tested" cannot decide a recording's verdict.
  const conformance = judge(RECORDING_REQUIREMENTS, results, { advertised: () => true, blockedByAuth: false });
  return { file: recording.file, kind: recording.kind, frames: frames.length, ...conformance };
}

export function validateReport(files: FileVerdict[]): ValidateReport {
  return {
    format: VALIDATE_REPORT_FORMAT,
    version: VALIDATE_REPORT_VERSION,
    verdict: files.every((f) => f.verdict === "CONFORMANT") ? "CONFORMANT" : "NOT CONFORMANT",
    files,
  };
}

/** Control characters (a hostile recording's terminal escapes) shown as escapes, never sent to a terminal. */
export const printable = (s: string): string =>
  s.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

const frameList = (frames?: number[]) => (frames?.length ? ` [frame ${frames.join(", ")}]` : "");

function textOfRequirement(r: RequirementResult): string[] {
  const head = `  ${r.status.toUpperCase().padEnd(14)} ${r.id} ${r.tier}: ${r.title}`;
  if (r.status !== "fail") return [head];
  return [
    head,
    `    ${r.citation}`,
    ...r.checks.filter((c) => c.status === "fail").map((c) => `    - ${printable(c.detail)}${frameList(c.frames)}`),
  ];
}

export function reportToText(report: ValidateReport): string {
  const out: string[] = [];
  for (const f of report.files) {
    out.push(`${printable(f.file)} (${f.kind}, ${f.frames} frame${f.frames === 1 ? "" : "s"}): ${f.verdict}`);
    out.push(...f.requirements.flatMap(textOfRequirement));
    if (f.reasons.length) out.push(`  decided by: ${f.reasons.join(", ")}`);
  }
  if (report.files.length > 1) out.push(`${report.files.length} files: ${report.verdict}`);
  return `${out.join("\n")}\n`;
}

export function reportToJson(report: ValidateReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** XML 1.0 text: markup escaped, characters XML cannot hold (controls, lone surrogates) replaced. */
export function xmlText(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\uFFFD")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/**
 * JUnit XML, as CI systems read it: a test suite per file, a test case per requirement.
 * A failed MANDATORY or CAPABILITY requirement is a failure; one that cannot decide the
 * verdict (ADVISORY, INFORMATIONAL) passes with its findings in system-out.
 */
export function reportToJUnit(report: ValidateReport): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const all = report.files.flatMap((f) => f.requirements);
  const failing = (r: RequirementResult) => r.status === "fail" && (r.tier === "MANDATORY" || r.tier === "CAPABILITY");
  const skipped = (r: RequirementResult) => r.status !== "pass" && r.status !== "fail";
  lines.push(
    `<testsuites name="acp-playground validate" tests="${all.length}" failures="${all.filter(failing).length}" skipped="${all.filter(skipped).length}">`,
  );
  for (const f of report.files) {
    const rs = f.requirements;
    lines.push(
      `  <testsuite name="${xmlText(f.file)}" tests="${rs.length}" failures="${rs.filter(failing).length}" skipped="${rs.filter(skipped).length}">`,
    );
    for (const r of rs) {
      lines.push(`    <testcase classname="${xmlText(f.file)}" name="${xmlText(`${r.id} ${r.title}`)}">`);
      const details = r.checks
        .filter((c) => c.status === "fail")
        .map((c) => `${c.detail}${frameList(c.frames)}`)
        .join("\n");
      if (failing(r))
        lines.push(
          `      <failure message="${xmlText(`${r.id} ${r.tier} (${r.citation})`)}" type="${r.tier}">${xmlText(details)}</failure>`,
        );
      else if (r.status === "fail") lines.push(`      <system-out>${xmlText(details)}</system-out>`);
      else if (skipped(r)) lines.push(`      <skipped message="${xmlText(r.checks[0]?.detail ?? r.status)}"/>`);
      lines.push("    </testcase>");
    }
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>");
  return `${lines.join("\n")}\n`;
}
