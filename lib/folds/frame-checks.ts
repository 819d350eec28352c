/**
 * Protocol checks on single frames, with the little context a FrameIndex has:
 * what a protocol engineer wants flagged in the inspector. Schema validation
 * lives in lib/protocol/schema-check.ts (it needs the SDK's JSON Schema, loaded lazily).
 */
import type { Frame } from "../protocol/frame";
import type { FrameIndex } from "./frame-index";
import type { RecordingRuleId } from "./recording-rules";
import { NO_PENDING, staticChecks, type CheckCode, type FrameCheck } from "./static-checks";

/**
 * The recording rules (lib/folds/recording-rules.ts) the inspector shows as checks; the
 * others it shows already (invalid lines, orphan responses, reused ids, ids on notifications).
 */
const RULE_CHECKS: Readonly<Partial<Record<RecordingRuleId, CheckCode>>> = {
  "PG-REC-008": "not-advertised",
  "PG-REC-009": "unknown-session",
  "PG-REC-010": "pending-tool-calls",
};

function ruleChecks(frame: Frame, index: FrameIndex): FrameCheck[] {
  const out: FrameCheck[] = [];
  for (const f of index.ruleFindings(frame.seq)) {
    const code = RULE_CHECKS[f.requirement];
    if (code) out.push({ code, message: `${f.message} (${f.requirement})` });
  }
  return out;
}

const NO_CHECKS: readonly FrameCheck[] = Object.freeze([]);

/** Every check except schema validation; `now` is for the age of unanswered requests. */
export function frameChecks(frame: Frame, index: FrameIndex | undefined, now: number): readonly FrameCheck[] {
  const checks = staticChecks(frame);
  if (index) checks.push(...ruleChecks(frame, index));
  if (index && frame.kind === "request") {
    if (index.isUnanswered(frame.seq)) {
      checks.push({ code: "unanswered", message: `no response after ${formatAge(now - frame.ts)}` });
    }
    if (index.isReusedId(frame.seq)) {
      checks.push({
        code: "reused-id",
        message: `id ${JSON.stringify(frame.id)} was reused while an earlier request with it was unanswered`,
      });
    }
  }
  return checks.length ? checks : NO_CHECKS;
}

/** True when any check (but schema) flags the frame; allocation-free for the common case. */
export function hasChecks(frame: Frame, index: FrameIndex | undefined): boolean {
  if (index && index.ruleFindings(frame.seq).some((f) => RULE_CHECKS[f.requirement] !== undefined)) return true;
  if (frame.kind === "response") return frame.error === NO_PENDING;
  if (frame.kind === "invalid" || frame.method === undefined) return false;
  if (frame.kind === "request" && index && (index.isUnanswered(frame.seq) || index.isReusedId(frame.seq))) return true;
  return staticChecks(frame).length > 0;
}

/** "850 ms", "12 s", "3 min 4 s". */
export function formatAge(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
