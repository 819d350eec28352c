/**
 * Coverage that cannot drift (issue #22), decoder half: every `session/update` kind of each
 * schema the installed SDK ships (v1 stable, v1 unstable, v2 stable and unstable) must be in
 * UPDATE_KINDS, have a sample that the schema accepts, be decoded into an item that is not the
 * "unknown"/"not rendered" fallback, and have a row in docs/acp-coverage.md; every method must
 * have a row there too. Upgrading the SDK makes this say exactly what is missing.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { UPDATE_KINDS, type SchemaVariant } from "../../protocol/update-kinds";
import { reduceFrames } from ".";
import { script } from "./test-script";
import type { ViewItem } from "./types";

const require = createRequire(import.meta.url);
const root = path.join(import.meta.dirname, "..", "..", "..");
const FILES: Record<SchemaVariant, string> = {
  v1: "v1/schema.json",
  "v1 unstable": "v1/schema.unstable.json",
  v2: "v2/schema.json",
  "v2 unstable": "v2/schema.unstable.json",
};
type Schema = { $defs: Record<string, { oneOf?: unknown[]; anyOf?: unknown[] }> };
const schemas = Object.fromEntries(
  Object.entries(FILES).map(([v, f]) => [
    v,
    JSON.parse(readFileSync(require.resolve(`@agentclientprotocol/sdk/schema/${f}`), "utf8")) as Schema,
  ]),
) as Record<SchemaVariant, Schema>;
const samples = JSON.parse(
  readFileSync(path.join(root, "test", "fixtures", "every-update-samples.json"), "utf8"),
) as Record<string, Record<string, unknown>>;
const doc = readFileSync(path.join(root, "docs", "acp-coverage.md"), "utf8");

function kindsOf(s: Schema): string[] {
  const su = s.$defs.SessionUpdate!;
  return ((su.oneOf ?? su.anyOf ?? []) as Array<{ properties?: { sessionUpdate?: { const?: string } } }>)
    .map((o) => o.properties?.sessionUpdate?.const)
    .filter((k): k is string => typeof k === "string");
}
const methodsOf = (s: Schema) => [
  ...new Set([...JSON.stringify(s).matchAll(/"x-method":"([^"]+)"/g)].map((m) => m[1]!)),
];

function validator(s: Schema) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const int = (min: number) => ({ type: "number" as const, validate: (n: number) => Number.isInteger(n) && n >= min });
  for (const f of ["int32", "int64", "int16", "int8"]) ajv.addFormat(f, int(-Infinity));
  for (const f of ["uint8", "uint16", "uint32", "uint64"]) ajv.addFormat(f, int(0));
  ajv.addFormat("double", { type: "number", validate: () => true });
  ajv.addFormat("uri", true);
  ajv.addFormat("date-time", true);
  ajv.addFormat("regex", true);
  ajv.addSchema({ ...s, $id: "acp" });
  return (value: unknown) => (ajv.validate({ $ref: "acp#/$defs/SessionUpdate" }, value) ? "" : ajv.errorsText());
}

/** Every item the frames produced, in the turn, the history, the preamble and child sessions. */
function allItems(view: ReturnType<typeof reduceFrames>): ViewItem[] {
  return Object.values(view.sessions).flatMap((s) => [...s.history, ...s.preamble, ...s.turns.flatMap((t) => t.items)]);
}

describe.each(Object.keys(FILES) as SchemaVariant[])("coverage of %s", (variant) => {
  const kinds = kindsOf(schemas[variant]);
  const valid = validator(schemas[variant]);

  it("lists the schema's update kinds in UPDATE_KINDS (the browser's copy)", () => {
    expect([...UPDATE_KINDS[variant]].sort()).toEqual([...kinds].sort());
  });

  it.each(kinds)("decodes %s into an item of its own", (kind) => {
    // A kind whose shape changed in v2 has a sample of its own there.
    const sample = (variant.startsWith("v2") ? samples[`v2:${kind}`] : undefined) ?? samples[kind];
    expect(sample, `no sample of ${kind} in test/fixtures/every-update-samples.json`).toBeDefined();
    expect(valid(sample), `the sample of ${kind} is not valid in ${variant}`).toBe("");
    const s = script();
    if (variant.startsWith("v2")) {
      s.request("to-agent", 0, "initialize", { protocolVersion: 2 });
      s.respond("from-agent", 0, { protocolVersion: 2, agentCapabilities: {} });
    }
    s.prompt(1, "every-1", "go");
    s.update("every-1", sample!);
    const view = reduceFrames(s.frames);
    const decoded = allItems(view).filter((it) => it.seqs.includes(s.frames.at(-1)!.seq));
    expect(decoded.length, `${kind} produced no item`).toBeGreaterThan(0);
    expect(
      decoded.map((it) => it.type),
      `${kind} fell back to the unknown item: ${JSON.stringify(decoded[0])}`,
    ).not.toContain("unknown");
  });

  it.each(kinds)("has a row for %s in docs/acp-coverage.md", (kind) => {
    expect(doc).toMatch(new RegExp(`^\\| \`${kind}\` +\\|`, "m"));
  });

  it.each(methodsOf(schemas[variant]))("has a row for the method %s in docs/acp-coverage.md", (method) => {
    expect(doc).toMatch(new RegExp(`^\\| \`${method.replace(/[$/]/g, "\\$&")}\` +\\|`, "m"));
  });
});
