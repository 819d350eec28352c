import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROBE_REQUIREMENTS, R } from "./requirements";

describe("the probe's requirements", () => {
  it("are declared once each, with a citation, and CAPABILITY ones say what gates them", () => {
    const ids = PROBE_REQUIREMENTS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of PROBE_REQUIREMENTS) {
      expect(r.citation, r.id).not.toBe("");
      if (r.tier === "CAPABILITY") expect(r.capability, r.id).toBeTruthy();
    }
    for (const id of Object.values(R)) expect(ids, id).toContain(id);
  });

  it("are each listed in docs/conformance.md with their tier", () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, "../../../docs/conformance.md"), "utf8");
    // Table cells as prettier pads them.
    for (const r of PROBE_REQUIREMENTS) expect(doc, r.id).toMatch(new RegExp(`\\| ${r.id} +\\| ${r.tier} +\\|`));
  });
});
