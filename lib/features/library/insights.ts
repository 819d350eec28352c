/**
 * Insights: what a reader of a recording (or of a live session) should look
 * at first, computed from the frames. Each insight lists items, and each item
 * names the frames (seqs) to select: the first is the one to scroll to.
 * Lists are capped (ITEMS_PER_INSIGHT, with the rest counted), so a hostile
 * or huge transcript makes a small answer.
 */
import type { Frame } from "../../protocol/frame";
import { DEFAULT_PROTOCOL, type ProtocolName } from "../../protocol/protocols";
import { isObject, num, str } from "../../protocol/json";
import { formatAge } from "../../folds/frame-checks";
import { CHECK_LABEL, staticChecks, type CheckCode } from "../../folds/static-checks";
import { isErrorResponse } from "../../folds/frame-filter";
import { FrameIndex } from "../../folds/frame-index";
import { buildWaterfall, formatMs, summarizeTurn, waitsForUser } from "../../folds/waterfall";

export type InsightKind =
  "protocol" | "errors" | "unanswered" | "not-json-rpc" | "retries" | "slowest" | "user-wait" | "tokens";

export type InsightSeverity = "error" | "warning" | "info";

export interface InsightItem {
  label: string;
  detail?: string;
  /** The frames this item is about; the first is the one to show. */
  seqs: number[];
}

export interface Insight {
  kind: InsightKind;
  severity: InsightSeverity;
  title: string;
  items: InsightItem[];
  /** Items left out of the list. */
  more: number;
}

export const ITEMS_PER_INSIGHT = 10;
/** A turn is the user's wait when permission questions took at least this share of it. */
const USER_WAIT_SHARE = 0.5;
/** Requests with longer params are not checked for retries. */
const MAX_RETRY_KEY = 16 * 1024;
/** Text from a frame shown in an item, at most. */
const PREVIEW_CHARS = 120;

const ORDER: InsightKind[] = [
  "protocol",
  "errors",
  "unanswered",
  "not-json-rpc",
  "retries",
  "slowest",
  "user-wait",
  "tokens",
];

const preview = (s: string) => {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > PREVIEW_CHARS ? `${one.slice(0, PREVIEW_CHARS - 1)}…` : one;
};

function capped(kind: InsightKind, severity: InsightSeverity, title: string, items: InsightItem[]): Insight {
  return {
    kind,
    severity,
    title,
    items: items.slice(0, ITEMS_PER_INSIGHT),
    more: Math.max(0, items.length - ITEMS_PER_INSIGHT),
  };
}

export interface InsightOptions {
  /** Now, for the age of requests still waiting (a live session); a transcript's last frame otherwise. */
  now?: number;
  /** How many of the slowest requests to list. */
  slowest?: number;
  /** The protocol of the frames' agent (its turns are read by it); ACP when absent. */
  protocol?: ProtocolName;
}

/** Insights over frames in seq order, responses paired by `requestSeq`. Empty insights are left out. */
export function insightsOf(frames: readonly Frame[], options: InsightOptions = {}): Insight[] {
  const now = options.now ?? frames.at(-1)?.ts ?? 0;
  const index = new FrameIndex();
  const bySeq = new Map<number, Frame>();
  const slow: Array<{ ms: number; request: number; response: number; method: string }> = [];
  const errors = new Map<string, { code: string; messages: Map<string, number[]>; seqs: number[] }>();
  const notRpc: InsightItem[] = [];
  const broken = new Map<CheckCode, InsightItem[]>();
  const retries: InsightItem[] = [];
  /** Requests by direction, method and params: the last one sent, and how it ended. */
  const sent = new Map<string, { seq: number; failed: boolean; open: boolean }>();
  const sentKeyOf = new Map<number, string>();

  const flag = (code: CheckCode, item: InsightItem) => {
    let list = broken.get(code);
    if (!list) broken.set(code, (list = []));
    list.push(item);
  };

  for (const f of frames) {
    bySeq.set(f.seq, f);
    index.add(f);
    for (const c of staticChecks(f))
      flag(c.code, { label: `#${f.seq} ${f.method ?? f.kind}`, detail: c.message, seqs: [f.seq] });
    if (f.kind === "request" && index.isReusedId(f.seq))
      flag("reused-id", {
        label: `#${f.seq} ${f.method ?? "request"}`,
        detail: `id ${JSON.stringify(f.id)} was reused while an earlier request with it was unanswered`,
        seqs: [f.seq],
      });
    if (f.kind === "invalid") {
      const what = f.dir === "from-agent" ? "agent stdout" : "sent to the agent";
      notRpc.push({ label: `#${f.seq} ${what}: ${preview(f.raw)}`, detail: f.error, seqs: [f.seq] });
    }
    const m = isObject(f.message) ? f.message : undefined;
    if (f.kind === "request" && m && f.method !== undefined) {
      const params = JSON.stringify(m.params ?? null);
      // A huge request (a file written whole) is not kept as a key: retries are of small requests.
      const key = params.length <= MAX_RETRY_KEY ? `${f.dir} ${f.method} ${params}` : undefined;
      const before = key !== undefined ? sent.get(key) : undefined;
      if (before && (before.failed || before.open)) {
        retries.push({
          label: `#${f.seq} ${f.method} sent again`,
          detail: `the same request as #${before.seq}, which ${before.open ? "had no answer yet" : "failed"}`,
          seqs: [f.seq, before.seq],
        });
      }
      if (key !== undefined) {
        sent.set(key, { seq: f.seq, failed: false, open: true });
        sentKeyOf.set(f.seq, key);
      }
    }
    if (f.kind === "response" && f.requestSeq !== undefined) {
      const request = bySeq.get(f.requestSeq);
      const key = sentKeyOf.get(f.requestSeq);
      const entry = key !== undefined ? sent.get(key) : undefined;
      if (entry?.seq === f.requestSeq) {
        entry.open = false;
        entry.failed = isErrorResponse(f);
      }
      const method = f.method ?? request?.method ?? "?";
      const ms = f.latencyMs ?? (request ? f.ts - request.ts : undefined);
      if (ms !== undefined) slow.push({ ms, request: f.requestSeq, response: f.seq, method });
    }
    if (isErrorResponse(f) && m && isObject(m.error)) {
      const code = String(num(m.error.code) ?? "no code");
      const message = preview(str(m.error.message) ?? "(no message)");
      let group = errors.get(code);
      if (!group) errors.set(code, (group = { code, messages: new Map(), seqs: [] }));
      group.seqs.push(f.seq);
      const seqs = group.messages.get(message);
      if (seqs) seqs.push(f.seq);
      else group.messages.set(message, [f.seq]);
    }
  }

  const out: Insight[] = [];
  // A protocol rule broken.
  const protocol: InsightItem[] = [];
  for (const [code, items] of broken) {
    protocol.push({
      label: `${CHECK_LABEL[code]}: ${items.length} frame${items.length === 1 ? "" : "s"}`,
      detail: items[0]!.detail,
      seqs: items.map((i) => i.seqs[0]!),
    });
  }
  if (protocol.length) out.push(capped("protocol", "error", "Protocol rules broken", protocol));

  // Errors by code, with their messages.
  const errorItems = [...errors.values()]
    .sort((a, b) => b.seqs.length - a.seqs.length)
    .map((g) => ({
      label: `error ${g.code} ×${g.seqs.length}`,
      detail: [...g.messages.entries()]
        .slice(0, 3)
        .map(([msg, seqs]) => `${msg}${seqs.length > 1 ? ` (×${seqs.length})` : ""}`)
        .join(" · "),
      seqs: g.seqs,
    }));
  if (errorItems.length) out.push(capped("errors", "error", "Errors by code", errorItems));

  // Requests never answered (those still waiting in a live session included). An app-server turn
  // is answered at once and ends with turn/completed: one that never came is its turn/start's.
  const turns = buildWaterfall(frames, options.protocol ?? DEFAULT_PROTOCOL).turns;
  const unanswered = [
    ...index.unanswered().map((r) => ({
      label: `#${r.seq} ${r.method ?? "request"} ${r.dir === "to-agent" ? "to the agent" : "from the agent"}`,
      detail: `no answer after ${formatAge(now - r.ts)}`,
      seqs: [r.seq],
    })),
    ...turns
      .filter((t) => t.turnId !== undefined && !t.end)
      .map((t) => ({
        label: `#${t.promptSeq} turn/start: turn ${t.index + 1} never completed`,
        detail: `no turn/completed after ${formatAge(now - t.start)}`,
        seqs: [t.promptSeq],
      })),
  ];
  if (unanswered.length) out.push(capped("unanswered", "warning", "Requests never answered", unanswered));

  if (notRpc.length) out.push(capped("not-json-rpc", "warning", "Lines that were not JSON-RPC", notRpc));
  if (retries.length) out.push(capped("retries", "warning", "Retries", retries));

  // The slowest requests.
  slow.sort((a, b) => b.ms - a.ms);
  const slowest = slow.slice(0, options.slowest ?? 5).map((s) => ({
    label: `${s.method}: ${formatMs(s.ms)}`,
    detail: `request #${s.request}, answer #${s.response}`,
    seqs: [s.request, s.response],
  }));
  if (slowest.length)
    out.push({ kind: "slowest", severity: "info", title: "Slowest requests", items: slowest, more: 0 });

  // Turns: the user's wait, and tokens.
  const waits: InsightItem[] = [];
  const tokens: InsightItem[] = [];
  for (const t of turns) {
    const s = summarizeTurn(t, now);
    if (s.totalMs > 0 && s.userWaitMs >= s.totalMs * USER_WAIT_SHARE) {
      const permissions = t.requests.filter(waitsForUser).flatMap((r) => [...r.seqs]);
      waits.push({
        label: `turn ${t.index + 1}: ${formatMs(s.userWaitMs)} of ${formatMs(s.totalMs)} waiting for the user`,
        detail: `${Math.round((s.userWaitMs / s.totalMs) * 100)}% of the turn; the agent worked ${formatMs(s.agentMs)}`,
        seqs: [t.promptSeq, ...permissions],
      });
    }
    const u = s.usage;
    const total = u?.totalTokens ?? (u?.inputTokens ?? 0) + (u?.outputTokens ?? 0);
    if (u && total > 0) {
      const parts = [
        u.inputTokens !== undefined ? `in ${u.inputTokens}` : "",
        u.outputTokens !== undefined ? `out ${u.outputTokens}` : "",
        u.thoughtTokens !== undefined ? `thought ${u.thoughtTokens}` : "",
        u.cachedReadTokens !== undefined ? `cached ${u.cachedReadTokens}` : "",
      ].filter(Boolean);
      tokens.push({
        label: `turn ${t.index + 1}: ${total.toLocaleString("en-US")} tokens`,
        detail: parts.join(" · ") || undefined,
        seqs: t.end ? [t.promptSeq, t.end.seq] : [t.promptSeq],
      });
    }
  }
  if (waits.length) out.push(capped("user-wait", "info", "Turns where the user's wait dominated", waits));
  if (tokens.length) out.push(capped("tokens", "info", "Token use per turn", tokens));

  return out.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
}
