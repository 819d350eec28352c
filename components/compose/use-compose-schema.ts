"use client";
/**
 * The schema the forms are built from, loaded on first use as its own chunk: for ACP the SDK's
 * JSON Schema (v1 stable, or with the unstable methods; v2's, once the agent negotiated protocol
 * version 2) and its method names (any value import of the SDK brings its zod validators); for
 * Codex's app-server the schema generated from the pinned Codex. With a checker over the schema
 * for validation as you type, and the methods to compose.
 */
import { useEffect, useState } from "react";
import { appServerComposeMethods, composeMethods, type MethodSpec } from "@/lib/features/compose/catalog";
import type { Defs } from "@/lib/features/compose/schema-form";
import { descriptorOf, type ProtocolName } from "@/lib/protocol/protocols";
import { createAppServerSchema, type AppServerSchemaFile } from "@/lib/protocol/schema-app-server";
import { createSchemaChecker, type SchemaChecker } from "@/lib/protocol/schema-check";

export interface ComposeSchema {
  defs: Defs;
  checker: SchemaChecker;
  /** The methods a client composes, in the order shown (ACP: AGENT_METHODS then PROTOCOL_METHODS, in the SDK's order). */
  specs: readonly MethodSpec[];
  /** The protocol version of this schema (1, or 2 for ACP's v2 draft). */
  protocolVersion: number;
  /** Where the forms come from, said above them. */
  source: string;
}

type Which = "stable" | "unstable" | "v2" | "v2-unstable" | "app-server";
const cache: Partial<Record<Which, Promise<ComposeSchema>>> = {};
const loaded: Partial<Record<Which, ComposeSchema>> = {};

interface Surface {
  AGENT_METHODS: Record<string, string>;
  PROTOCOL_METHODS: Record<string, string>;
}

const composed = (s: Surface) => [...Object.values(s.AGENT_METHODS), ...Object.values(s.PROTOCOL_METHODS)];

async function schemaFile(which: Exclude<Which, "app-server">): Promise<unknown> {
  switch (which) {
    case "stable":
      return import("@agentclientprotocol/sdk/schema/v1/schema.json");
    case "unstable":
      return import("@agentclientprotocol/sdk/schema/v1/schema.unstable.json");
    case "v2":
      return import("@agentclientprotocol/sdk/schema/v2/schema.json");
    case "v2-unstable":
      return import("@agentclientprotocol/sdk/schema/v2/schema.unstable.json");
  }
}

async function surfaces(
  which: Exclude<Which, "app-server">,
): Promise<{ stable: Surface; shown: Surface; version: number }> {
  if (which === "stable" || which === "unstable") {
    const [sdk, unstable] = await Promise.all([
      import("@agentclientprotocol/sdk"),
      which === "unstable" ? import("@agentclientprotocol/sdk/unstable") : undefined,
    ]);
    return { stable: sdk, shown: unstable ?? sdk, version: sdk.PROTOCOL_VERSION };
  }
  const [v2, unstable] = await Promise.all([
    import("@agentclientprotocol/sdk/experimental/v2"),
    which === "v2-unstable" ? import("@agentclientprotocol/sdk/experimental/v2/unstable") : undefined,
  ]);
  return { stable: v2, shown: unstable ?? v2, version: v2.PROTOCOL_VERSION };
}

async function loadAcp(which: Exclude<Which, "app-server">): Promise<ComposeSchema> {
  const [file, s] = await Promise.all([schemaFile(which), surfaces(which)]);
  const schema = ((file as { default?: unknown }).default ?? file) as { $defs: Defs };
  return {
    defs: schema.$defs,
    checker: createSchemaChecker(schema),
    specs: composeMethods(schema.$defs, composed(s.shown), composed(s.stable)),
    protocolVersion: s.version,
    source: "the ACP SDK's JSON Schema",
  };
}

async function loadAppServer(): Promise<ComposeSchema> {
  const imported = await import("@/lib/protocol/app-server-schema.json");
  const file = ((imported as { default?: unknown }).default ?? imported) as AppServerSchemaFile;
  return {
    defs: file.$defs as Defs,
    checker: createAppServerSchema(file).checker,
    specs: appServerComposeMethods(file),
    protocolVersion: 1,
    source: `the app-server schema of Codex ${file.codexVersion}`,
  };
}

const load = async (which: Which) =>
  (loaded[which] = await (which === "app-server" ? loadAppServer() : loadAcp(which)));

/**
 * The forms' schema for the agent's protocol; for ACP, of the protocol `version` negotiated (2: the
 * v2 draft; anything else: v1), stable or unstable.
 */
export function useComposeSchema(protocol: ProtocolName, unstable = false, version = 1): ComposeSchema | undefined {
  const which: Which =
    descriptorOf(protocol).schema === "appServer"
      ? "app-server"
      : version === 2
        ? unstable
          ? "v2-unstable"
          : "v2"
        : unstable
          ? "unstable"
          : "stable";
  const [, loadedNow] = useState(0);
  useEffect(() => {
    if (loaded[which]) return;
    let live = true;
    (cache[which] ??= load(which)).then(
      () => live && loadedNow((n) => n + 1),
      (err: unknown) => console.warn("schema unavailable:", err),
    );
    return () => {
      live = false;
    };
  }, [which]);
  return loaded[which];
}
