/**
 * The v2 probe against the v2 fixtures run in memory (test/fixtures/v2-reference-agent.mjs, on the
 * pinned SDK's v2 API, over PassThrough streams): the reference agent passes every requirement the
 * probe can exercise; each defect of the broken one fails exactly the kit ids it is built for.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { DEFAULT_DEFECTS } from "@/test/fixtures/v2-broken-agent.mjs";
import { serve } from "@/test/fixtures/v2-reference-agent.mjs";
import type { V2Connect } from "./connection";
import { runV2Probe, type V2ProbeResult } from "./probe";
import { V2_REQUIREMENTS } from "./requirements";

function memoryAgent(defects: readonly string[]): V2Connect {
  return async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const agent = serve({ input, output, defects, delayMs: 2 });
    let onLine: (l: string) => void = () => {};
    let onClose: () => void = () => {};
    let buf = "";
    output.on("data", (chunk: Buffer) => {
      buf += chunk.toString("utf8");
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        onLine(line);
      }
    });
    return {
      send: (l) => void input.write(`${l}\n`),
      onLine: (f) => (onLine = f),
      onClose: (f) => (onClose = f),
      close: async () => {
        input.end();
        agent.close();
        onClose();
      },
    };
  };
}

// Turns may take 6 s: the broken agent's ignored cancel ends its turn 2.5 s late (past any quiet period),
// and must still end inside the turn's time on a loaded machine.
const probe = (defects: readonly string[] = []) =>
  runV2Probe(memoryAgent(defects), { cwd: "/tmp/v2-probe", timeoutMs: 6000, quietMs: 500 });

const statusOf = (r: V2ProbeResult) => Object.fromEntries(r.conformance.requirements.map((q) => [q.id, q.status]));
const failing = (r: V2ProbeResult) =>
  r.conformance.requirements
    .filter((q) => q.status === "fail")
    .map((q) => q.id)
    .sort();

const RECORD_ONLY = ["ACP-BATCH-206", "ACP-BATCH-207", "ACP-BATCH-208", "ACP-CANCEL-204"];

describe("the v2 probe", () => {
  it("passes the reference agent on every requirement it can exercise", async () => {
    const r = await probe();
    const status = statusOf(r);
    for (const q of V2_REQUIREMENTS)
      expect([q.id, status[q.id]]).toEqual([q.id, RECORD_ONLY.includes(q.id) ? "skipped" : "pass"]);
    expect(r.conformance.verdict).toBe("CONFORMANT");
    expect(r.agent).toEqual({ name: "v2-reference-agent", version: "1.0.0" });
  }, 60_000);

  it("fails the broken agent on exactly the ids its defects break", async () => {
    const r = await probe(DEFAULT_DEFECTS);
    expect(failing(r)).toEqual(
      [
        "ACP-STATE-203",
        "ACP-PERM-201",
        "ACP-PATCH-201",
        "ACP-PATCH-203",
        "ACP-PATCH-204",
        "ACP-PATCH-205",
        "ACP-PATCH-206",
        "ACP-PATCH-207",
        "ACP-PATCH-208",
        "ACP-PATCH-209",
        "ACP-ENUM-201",
        "ACP-ENUM-202",
        "ACP-ENUM-203",
        "ACP-CANCEL-201",
        "ACP-CANCEL-205",
        "ACP-CANCEL-206",
        "ACP-CANCEL-207",
        "ACP-CANCEL-208",
        "ACP-RESUME-202",
        "ACP-RESUME-203",
        "ACP-RESUME-204",
        "ACP-RESUME-205",
        "ACP-BATCH-201",
        "ACP-BATCH-202",
        "ACP-BATCH-203",
        "ACP-BATCH-204",
        "ACP-BATCH-205",
      ].sort(),
    );
    expect(r.conformance.verdict).toBe("NOT CONFORMANT");
  }, 60_000);

  it.each([
    // Never running: not before the idle (201), nor after requires_action (209).
    ["no-running", ["ACP-PATCH-209", "ACP-STATE-201"]],
    // A turn that never ends also fails the two checks that need it to (the permission answered, a `_` outcome).
    ["no-idle", ["ACP-ENUM-203", "ACP-PERM-201", "ACP-STATE-202"]],
    // An ignored cancel ends the turn end_turn: not cancelled (201, 206, 207), and a defined other reason (203).
    ["cancel-ignored", ["ACP-CANCEL-201", "ACP-CANCEL-203", "ACP-CANCEL-206", "ACP-CANCEL-207"]],
    ["state-after-cancel", ["ACP-CANCEL-202"]],
    ["resume-missing", ["ACP-RESUME-201"]],
  ])(
    "fails %s on %j alone",
    async (defect, ids) => {
      expect(failing(await probe([defect]))).toEqual([...ids].sort());
    },
    60_000,
  );
});
