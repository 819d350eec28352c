/**
 * `validate` on v2 recordings: both sides of a v2 conversation with the reference agent (the
 * probe's own transcript of one turn, cancel and resume, run in memory) are judged by the v2 schema
 * once initialize negotiated version 2, and pass; the broken agent's recording fails the schema
 * requirement (PG-REC-003) on its malformed updates.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { DEFAULT_DEFECTS } from "@/test/fixtures/v2-broken-agent.mjs";
import { recordV2 } from "@/test/v2-recording";
import { createSchemaSet } from "../../protocol/schema-check";
import { validateRecording, type Recording } from "../library/validate-report";

const require = createRequire(import.meta.url);
const read = (p: string): unknown => JSON.parse(readFileSync(require.resolve(p), "utf8"));
const schemas = createSchemaSet({
  stable: read("@agentclientprotocol/sdk/schema/v1/schema.json"),
  unstable: read("@agentclientprotocol/sdk/schema/v1/schema.unstable.json"),
  v2: read("@agentclientprotocol/sdk/schema/v2/schema.unstable.json"),
});

const failures = (r: Recording) =>
  validateRecording(r, { acp: schemas })
    .requirements.flatMap((q) => q.checks)
    .filter((c) => c.status === "fail");

describe("validate on v2 recordings", () => {
  it("judges the reference agent's frames by the v2 schema and passes them", async () => {
    const recording = await recordV2([]);
    expect(recording.frames.length).toBeGreaterThan(20);
    expect(failures(recording)).toEqual([]);
  }, 30_000);

  it("fails the broken agent's malformed updates on PG-REC-003", async () => {
    const details = failures(await recordV2(DEFAULT_DEFECTS))
      .filter((c) => c.requirement === "PG-REC-003")
      .map((c) => c.detail);
    expect(details.join("\n")).toMatch(/messageId/);
    expect(details.join("\n")).toMatch(/planId/);
  }, 30_000);
});
