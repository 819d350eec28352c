"use client";
/**
 * The schemas frames are judged by, loaded on first use (each is its own chunk): for ACP the SDK's
 * (v1 stable, v1 unstable, v2) by the one validity rule of lib/protocol/schema-check.ts (the relay
 * uses the same rule); for Codex's app-server the schema generated from the pinned Codex
 * (lib/protocol/schema-app-server.ts). A per-frame cache of the verdicts.
 */
import { useEffect, useMemo, useState } from "react";
import type { Frame } from "@/lib/protocol/frame";
import { DEFAULT_PROTOCOL, descriptorOf, type ProtocolName } from "@/lib/protocol/protocols";
import { createAppServerSchema, type AppServerSchemaFile } from "@/lib/protocol/schema-app-server";
import { createSchemaSet, type SchemaSet, type SchemaVerdict } from "@/lib/protocol/schema-check";

let loaded: SchemaSet | undefined;
let loading: Promise<SchemaSet | undefined> | undefined;

const unwrap = (m: unknown): unknown => (m as { default?: unknown }).default ?? m;

/** Where the schema files come from: the app's own chunks, or (the one-file export) the page's blocks. */
export interface SchemaSource {
  acp(): Promise<{ stable: unknown; unstable: unknown; v2: unknown }>;
  appServer(): Promise<unknown>;
}

let source: SchemaSource = {
  // The same files as SCHEMA_FILE_PATHS (literal here so the bundler can split them).
  acp: () =>
    Promise.all([
      import("@agentclientprotocol/sdk/schema/v1/schema.json"),
      import("@agentclientprotocol/sdk/schema/v1/schema.unstable.json"),
      import("@agentclientprotocol/sdk/schema/v2/schema.unstable.json"),
    ]).then(([stable, unstable, v2]) => ({ stable: unwrap(stable), unstable: unwrap(unstable), v2: unwrap(v2) })),
  appServer: () => import("@/lib/protocol/app-server-schema.json").then(unwrap),
};

/** The export's viewer reads the schema files from its page (export/viewer.tsx); set before the first frame is judged. */
export function setSchemaSource(s: SchemaSource): void {
  source = s;
}

function load(): Promise<SchemaSet | undefined> {
  loading ??= source
    .acp()
    .then((files) => (loaded = createSchemaSet(files)))
    .catch((err: unknown) => {
      console.warn("ACP schema checks unavailable:", err);
      return undefined;
    });
  return loading;
}

/** Judges frames of one log: the schema set with that log's negotiated version, or the app-server's schema. */
export interface FrameJudge {
  check(frame: Frame): SchemaVerdict | undefined;
}

let appServer: FrameJudge | undefined;
let appServerLoading: Promise<FrameJudge | undefined> | undefined;

function loadAppServer(): Promise<FrameJudge | undefined> {
  appServerLoading ??= source
    .appServer()
    .then((file) => (appServer = createAppServerSchema(file as AppServerSchemaFile)))
    .catch((err: unknown) => {
      console.warn("app-server schema checks unavailable:", err);
      return undefined;
    });
  return appServerLoading;
}

/** The judge of an app-server log (undefined until its schema loads). */
function useAppServerJudge(on: boolean): FrameJudge | undefined {
  const [judge, setJudge] = useState(appServer);
  useEffect(() => {
    if (!on || judge) return;
    let live = true;
    void loadAppServer().then((j) => live && j && setJudge(j));
    return () => {
      live = false;
    };
  }, [on, judge]);
  return on ? judge : undefined;
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

/**
 * The judge for a log in its protocol: an app-server log is never judged by ACP's schemas; an ACP
 * one with v2's too when the agent answered `initialize` with protocolVersion 2.
 */
export function useSchemaChecker(v2 = false, protocol: ProtocolName = DEFAULT_PROTOCOL): FrameJudge | undefined {
  // The protocol's descriptor names its schema.
  const acp = descriptorOf(protocol).schema === "acpSdk";
  const app = useAppServerJudge(!acp);
  const [set, setSet] = useState(loaded);
  useEffect(() => {
    if (set || !acp) return;
    let live = true;
    void load().then((c) => live && c && setSet(c));
    return () => {
      live = false;
    };
  }, [set, acp]);
  const judge = useMemo(() => (set ? judgeFor(set, v2) : undefined), [set, v2]);
  return acp ? judge : app;
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
