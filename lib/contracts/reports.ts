/**
 * The reports features hand over the wire (lib/contracts/wire.ts) and to the views: the
 * probe's report, a re-run's steps and its structural diff. Defined here, below
 * the features that make them, so the contracts need no feature code.
 */
import type { JsonRpcId } from "../protocol/frame";
import type { Conformance, SpecVariant, Verdict } from "./requirements";

export type ProbeOutcome =
  "answered" | "-32601" | "error" | "timeout" | "no reply" | "skipped" | "not applicable" | "inconclusive";

/** The ACP registry's matrix classes: -32602 and -32002 mean the method exists. */
export type MethodSupport = "supported" | "auth required" | "not found" | "other";

export interface ProbeRow {
  check: string;
  method?: string;
  outcome: ProbeOutcome;
  latencyMs?: number;
  /** What the agent said or did, in a few words. */
  detail: string;
  /** True where the outcome is what the protocol asks for. */
  conforms?: boolean;
  /** For method calls: whether the agent has the method, as the registry's matrix counts it. */
  support?: MethodSupport;
  /** The requirements this row's checks bear on (ids in the report's `conformance`). */
  requirements?: string[];
}

/** One schema variant's requirements, judged apart from the others. */
export interface VariantConformance extends Conformance {
  variant: SpecVariant;
  /** Whether this part decides the report's verdict (v1 unstable never does). */
  decides: boolean;
}

/** The probe's verdict: CONFORMANT unless a part that decides is not. */
export interface ProbeConformance {
  verdict: Verdict;
  parts: VariantConformance[];
}

/** What the matrix shows besides the rows. */
export interface ProbeFacts {
  protocolVersion?: unknown;
  authMethods: Array<{ id: string; type: string }>;
  agentCapabilities?: Record<string, unknown>;
  /** `sessionCapabilities` keys the agent advertised. */
  sessionCapabilities: string[];
  modes: string[];
  models: string[];
  /** Where token usage was seen: "usage", "_meta.quota", "usage_update", "_meta.usage". */
  usage: string[];
  /** The agent's own requests and how the probe answered them. */
  answered: Array<{ method: string; answer: string }>;
  /** Whether the probe carried out terminal requests, and why (absent in reports from before). */
  terminals?: { on: boolean; why: string };
  /** The command lines the probe ran for the agent (`terminal/create` it carried out), as asked. */
  commands?: string[];
  /** From spawn to the first initialize answer (set by the server). */
  startupMs?: number;
  /** Resident memory of the agent's process group after the probe (set by the server). */
  rssBytes?: number;
}

export interface ProbeReport {
  /** Set once the report is kept (server/transcripts/probe-store.ts). */
  id?: string;
  profile: string;
  agent?: { name?: string; version?: string };
  startedAt: string;
  durationMs: number;
  rows: ProbeRow[];
  facts?: ProbeFacts;
  /** Requirement-level verdict (absent in reports from before it). */
  conformance?: ProbeConformance;
  transcriptId?: string;
}

export interface RerunStep {
  method: string;
  recordedId?: JsonRpcId;
  liveId?: JsonRpcId;
  outcome: "answered" | "error" | "timeout" | "sent";
  latencyMs?: number;
}

/** One field that differs between a recorded entry and the live one (`undefined`: absent on that side). */
export interface FieldDiff {
  /** Dot path into the entry (`result.stopReason`, `params.update.content[0].text`); "" for the whole entry. */
  path: string;
  recorded?: unknown;
  actual?: unknown;
}

/**
 * One step of the structural diff: an entry that changed (paired by position
 * within a run of changes), or one only the recording or only the live run has.
 */
export interface DiffChange {
  kind: "changed" | "missing" | "new";
  /** What the entry is: `response to session/prompt #1`, `session/update tool_call`… */
  label: string;
  /** Position of the entry on each side (0-based), when it has one. */
  recordedIndex?: number;
  actualIndex?: number;
  fields: FieldDiff[];
  /** More fields differed than are listed. */
  moreFields?: number;
}
