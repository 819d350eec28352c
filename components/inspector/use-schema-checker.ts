"use client";
/**
 * The SDK's JSON Schemas (v1 stable, v1 unstable, v2), loaded on first use (each
 * is its own chunk), judged by the one validity rule of lib/protocol/schema-check.ts
 * (the relay uses the same rule), and a per-frame cache of the verdicts.
 */
import { useEffect, useMemo, useState } from "react";
import type { Frame } from "@/lib/protocol/frame";
import { createSchemaSet, type SchemaSet, type SchemaVerdict } from "@/lib/protocol/schema-check";

let loaded: SchemaSet | undefined;
let loading: Promise<SchemaSet | undefined> | undefined;

const unwrap = (m: unknown): unknown => (m as { default?: unknown }).default ?? m;

function load(): Promise<SchemaSet | undefined> {
  // The same files as SCHEMA_FILE_PATHS (literal here so the bundler can split them).
  loading ??= Promise.all([
    import("@agentclientprotocol/sdk/schema/v1/schema.json"),
    import("@agentclientprotocol/sdk/schema/v1/schema.unstable.json"),
    import("@agentclientprotocol/sdk/schema/v2/schema.unstable.json"),
  ])
    .then(
      ([stable, unstable, v2]) =>
        (loaded = createSchemaSet({ stable: unwrap(stable), unstable: unwrap(unstable), v2: unwrap(v2) })),
    )
    .catch((err: unknown) => {
      console.warn("ACP schema checks unavailable:", err);
      return undefined;
    });
  return loading;
}

/** Judges frames of one log: the schema set with that log's negotiated version. */
export interface FrameJudge {
  check(frame: Frame): SchemaVerdict | undefined;
}

const judges = new WeakMap<SchemaSet, { v1: FrameJudge; v2: FrameJudge }>();

function judgeFor(set: SchemaSet, v2: boolean): FrameJudge {
  let pair = judges.get(set);
  if (!pair) {
    pair = { v1: { check: (f) => set.check(f) }, v2: { check: (f) => set.check(f, { v2: true }) } };
    judges.set(set, pair);
  }
  return v2 ? pair.v2 : pair.v1;
}

/** The judge for a log; `v2` when the agent answered `initialize` with protocolVersion 2. */
export function useSchemaChecker(v2 = false): FrameJudge | undefined {
  const [set, setSet] = useState(loaded);
  useEffect(() => {
    if (set) return;
    let live = true;
    void load().then((c) => live && c && setSet(c));
    return () => {
      live = false;
    };
  }, [set]);
  return useMemo(() => (set ? judgeFor(set, v2) : undefined), [set, v2]);
}

const verdicts = new WeakMap<FrameJudge, WeakMap<Frame, SchemaVerdict | null>>();
const NONE: SchemaVerdict = Object.freeze({ variant: undefined, issues: [] });

/** A frame's verdict (NONE when not checkable or before the schemas load); computed once per frame and judge. */
export function schemaVerdict(judge: FrameJudge | undefined, frame: Frame): SchemaVerdict {
  if (!judge) return NONE;
  let cache = verdicts.get(judge);
  if (!cache) verdicts.set(judge, (cache = new WeakMap()));
  let v = cache.get(frame);
  if (v === undefined) {
    v = judge.check(frame) ?? null;
    cache.set(frame, v);
  }
  return v ?? NONE;
}
