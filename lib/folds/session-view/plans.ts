/**
 * Plans: the stable `plan` (entries, a full replacement each time) and the unstable/v2
 * `plan_update` (a plan with an id as items, markdown or a file) and `plan_removed`.
 */
import type { PlanEntry } from "@agentclientprotocol/sdk";
import { isObject, str } from "../../protocol/json";
import type { Draft, Obj } from "./draft";
import { addItem, lastIndex, ownAt, type Target } from "./items";
import { SeqList } from "./seq-list";
import type { PlanItem } from "./types";

const STATUSES = new Set(["pending", "in_progress", "completed"]);
const PRIORITIES = new Set(["high", "medium", "low"]);

/** The entries an agent sent, each made safe to render: string content, a known status and priority. */
export function planEntries(v: unknown): PlanEntry[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObject).map((e) => {
    const status = str(e.status);
    const priority = str(e.priority);
    return {
      ...e,
      content: typeof e.content === "string" ? e.content : JSON.stringify(e.content ?? ""),
      status: status && STATUSES.has(status) ? status : "pending",
      priority: priority && PRIORITIES.has(priority) ? priority : "low",
    } as PlanEntry;
  });
}

/** The stable `plan`: replaces the last plan without an id in this list, keeping its place. */
export function onPlan(d: Draft, tg: Target, seq: number, u: Obj): string | undefined {
  if (!Array.isArray(u.entries)) return "entries is not an array";
  const entries = planEntries(u.entries);
  const i = lastIndex(tg.items, (it) => it.type === "plan" && it.planId === undefined);
  if (i < 0) addItem<PlanItem>(d, tg, { type: "plan", entries, seqs: SeqList.of(seq) });
  else ownAt<PlanItem>(d, tg, i, seq).entries = entries;
  return undefined;
}

/** `plan_update`: upserts the plan with this id in one of its forms. Returns a reason when malformed. */
export function onPlanUpdate(d: Draft, tg: Target, seq: number, u: Obj): string | undefined {
  const plan = u.plan;
  if (!isObject(plan)) return "plan is not an object";
  const planId = str(plan.planId);
  if (planId === undefined) return "plan.planId is not a string";
  const form = str(plan.type);
  const fields: Partial<PlanItem> = {};
  switch (form) {
    case "items":
      if (!Array.isArray(plan.entries)) return "plan.entries is not an array";
      Object.assign(fields, { form, entries: planEntries(plan.entries), markdown: undefined, uri: undefined });
      break;
    case "markdown":
      if (typeof plan.content !== "string") return "plan.content is not a string";
      Object.assign(fields, { form, entries: [], markdown: plan.content, uri: undefined });
      break;
    case "file":
      if (typeof plan.uri !== "string") return "plan.uri is not a string";
      Object.assign(fields, { form, entries: [], uri: plan.uri, markdown: undefined });
      break;
    default:
      return `plan type ${JSON.stringify(form ?? null)} is not one this view decodes`;
  }
  const i = lastIndex(tg.items, (it) => it.type === "plan" && it.planId === planId);
  const it =
    i < 0
      ? addItem<PlanItem>(d, tg, { type: "plan", planId, entries: [], seqs: SeqList.of(seq) })
      : ownAt<PlanItem>(d, tg, i, seq);
  Object.assign(it, fields);
  for (const k of ["markdown", "uri"] as const) if (it[k] === undefined) delete it[k];
  delete it.removed;
  return undefined;
}

/** `plan_removed`: the plan card with this id says it was removed (a card of its own when never seen). */
export function onPlanRemoved(d: Draft, tg: Target, seq: number, u: Obj): string | undefined {
  const planId = str(u.planId);
  if (planId === undefined) return "planId is not a string";
  const i = lastIndex(tg.items, (it) => it.type === "plan" && it.planId === planId);
  if (i < 0) addItem<PlanItem>(d, tg, { type: "plan", planId, entries: [], removed: true, seqs: SeqList.of(seq) });
  else ownAt<PlanItem>(d, tg, i, seq).removed = true;
  return undefined;
}
