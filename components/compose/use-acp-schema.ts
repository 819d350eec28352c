"use client";
/**
 * The SDK's JSON Schema (stable, or with the unstable methods) and its method
 * names, loaded on first use as their own chunks (the schema is 250-400 kB,
 * and any value import of the SDK brings its zod validators), with a checker
 * over the schema for validation as you type.
 */
import { useEffect, useState } from "react";
import { createSchemaChecker, type SchemaChecker } from "@/lib/protocol/schema-check";
import type { Defs } from "@/lib/features/schema-form";

export interface AcpSchema {
  defs: Defs;
  checker: SchemaChecker;
  /** AGENT_METHODS of the surface loaded, in the SDK's order. */
  methods: readonly string[];
  /** AGENT_METHODS of the stable surface. */
  stableMethods: readonly string[];
  protocolVersion: number;
}

type Which = "stable" | "unstable";
const cache: Partial<Record<Which, Promise<AcpSchema>>> = {};
const loaded: Partial<Record<Which, AcpSchema>> = {};

async function load(which: Which): Promise<AcpSchema> {
  const [file, sdk, unstable] = await Promise.all([
    which === "stable"
      ? import("@agentclientprotocol/sdk/schema/v1/schema.json")
      : import("@agentclientprotocol/sdk/schema/v1/schema.unstable.json"),
    import("@agentclientprotocol/sdk"),
    which === "unstable" ? import("@agentclientprotocol/sdk/unstable") : undefined,
  ]);
  const schema = ((file as { default?: unknown }).default ?? file) as { $defs: Defs };
  const stableMethods = Object.values(sdk.AGENT_METHODS) as string[];
  return (loaded[which] = {
    defs: schema.$defs,
    checker: createSchemaChecker(schema),
    methods: unstable ? (Object.values(unstable.AGENT_METHODS) as string[]) : stableMethods,
    stableMethods,
    protocolVersion: sdk.PROTOCOL_VERSION,
  });
}

export function useAcpSchema(unstable = false): AcpSchema | undefined {
  const which: Which = unstable ? "unstable" : "stable";
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
