"use client";
/**
 * The SDK's JSON Schema (stable, or with the unstable methods), loaded on
 * first use as its own chunk, with a checker over it for validation as you type.
 */
import { useEffect, useState } from "react";
import { createSchemaChecker, type SchemaChecker } from "@/lib/schema-check";
import type { Defs } from "@/lib/schema-form";

export interface AcpSchema {
  defs: Defs;
  checker: SchemaChecker;
}

const cache: Partial<Record<"stable" | "unstable", Promise<AcpSchema>>> = {};
const loaded: Partial<Record<"stable" | "unstable", AcpSchema>> = {};

function load(which: "stable" | "unstable"): Promise<AcpSchema> {
  cache[which] ??= (
    which === "stable" ? import("@agentclientprotocol/sdk/schema/v1/schema.json") : import("@agentclientprotocol/sdk/schema/v1/schema.unstable.json")
  ).then((m) => {
    const file = ((m as { default?: unknown }).default ?? m) as { $defs: Defs };
    return (loaded[which] = { defs: file.$defs, checker: createSchemaChecker(file) });
  });
  return cache[which];
}

export function useAcpSchema(unstable = false): AcpSchema | undefined {
  const which = unstable ? "unstable" : "stable";
  const [, loadedNow] = useState(0);
  useEffect(() => {
    if (loaded[which]) return;
    let live = true;
    load(which).then(
      () => live && loadedNow((n) => n + 1),
      (err: unknown) => console.warn("ACP schema unavailable:", err),
    );
    return () => {
      live = false;
    };
  }, [which]);
  return loaded[which];
}
