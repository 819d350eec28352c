"use client";
/**
 * The SDK's JSON Schema (v1 stable, or with the unstable methods; v2's, once
 * the agent negotiated protocol version 2) and its method names, loaded on
 * first use as their own chunks (the schema is 250-400 kB, and any value
 * import of the SDK brings its zod validators), with a checker over the schema
 * for validation as you type.
 */
import { useEffect, useState } from "react";
import { createSchemaChecker, type SchemaChecker } from "@/lib/protocol/schema-check";
import type { Defs } from "@/lib/features/schema-form";

export interface AcpSchema {
  defs: Defs;
  checker: SchemaChecker;
  /** The methods a client composes (AGENT_METHODS, then PROTOCOL_METHODS) of the surface loaded, in the SDK's order. */
  methods: readonly string[];
  /** Those of the stable surface of the same protocol version. */
  stableMethods: readonly string[];
  /** The protocol version of this schema (1, or 2 for the v2 draft). */
  protocolVersion: number;
}

type Which = "stable" | "unstable" | "v2" | "v2-unstable";
const cache: Partial<Record<Which, Promise<AcpSchema>>> = {};
const loaded: Partial<Record<Which, AcpSchema>> = {};

interface Surface {
  AGENT_METHODS: Record<string, string>;
  PROTOCOL_METHODS: Record<string, string>;
}

const composed = (s: Surface) => [...Object.values(s.AGENT_METHODS), ...Object.values(s.PROTOCOL_METHODS)];

async function schemaFile(which: Which): Promise<unknown> {
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

async function surfaces(which: Which): Promise<{ stable: Surface; shown: Surface; version: number }> {
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

async function load(which: Which): Promise<AcpSchema> {
  const [file, s] = await Promise.all([schemaFile(which), surfaces(which)]);
  const schema = ((file as { default?: unknown }).default ?? file) as { $defs: Defs };
  return (loaded[which] = {
    defs: schema.$defs,
    checker: createSchemaChecker(schema),
    methods: composed(s.shown),
    stableMethods: composed(s.stable),
    protocolVersion: s.version,
  });
}

/** The schema of the protocol `version` negotiated (2: the v2 draft; anything else: v1), stable or unstable. */
export function useAcpSchema(unstable = false, version = 1): AcpSchema | undefined {
  const which: Which = version === 2 ? (unstable ? "v2-unstable" : "v2") : unstable ? "unstable" : "stable";
  const [, loadedNow] = useState(0);
  useEffect(() => {
    if (loaded[which]) return;
    let live = true;
    (cache[which] ??= load(which)).then(
      () => live && loadedNow((n) => n + 1),
      (err: unknown) => console.warn("ACP schema unavailable:", err),
    );
    return () => {
      live = false;
    };
  }, [which]);
  return loaded[which];
}
