"use client";
/**
 * The SDK's JSON Schema checker, loaded on first use (the schema is 250 kB, so
 * it is its own chunk), and a per-frame cache of its verdicts.
 */
import { useEffect, useState } from "react";
import type { Frame } from "@/lib/protocol/frame";
import { createSchemaChecker, type SchemaChecker, type SchemaIssue } from "@/lib/protocol/schema-check";

let loaded: SchemaChecker | undefined;
let loading: Promise<SchemaChecker | undefined> | undefined;

function load(): Promise<SchemaChecker | undefined> {
  loading ??= import("@agentclientprotocol/sdk/schema/v1/schema.json")
    .then((m) => (loaded = createSchemaChecker((m as { default?: unknown }).default ?? m)))
    .catch((err: unknown) => {
      console.warn("ACP schema checks unavailable:", err);
      return undefined;
    });
  return loading;
}

export function useSchemaChecker(): SchemaChecker | undefined {
  const [checker, setChecker] = useState(loaded);
  useEffect(() => {
    if (checker) return;
    let live = true;
    void load().then((c) => live && c && setChecker(c));
    return () => {
      live = false;
    };
  }, [checker]);
  return checker;
}

const verdicts = new WeakMap<Frame, readonly SchemaIssue[] | null>();
const NONE: readonly SchemaIssue[] = Object.freeze([]);

/** Schema issues of a frame (empty when fine or not checkable); computed once per frame. */
export function schemaIssues(checker: SchemaChecker | undefined, frame: Frame): readonly SchemaIssue[] {
  if (!checker) return NONE;
  let v = verdicts.get(frame);
  if (v === undefined) {
    const issues = checker.check(frame);
    v = issues && issues.length ? issues : null;
    verdicts.set(frame, v);
  }
  return v ?? NONE;
}
