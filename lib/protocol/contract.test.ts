import { z } from "zod";
import { describe, expect, it } from "vitest";
import { parseWith } from "./contract";

describe("describeIssues (through parseWith)", () => {
  const schema = z.strictObject({
    env: z.record(z.string().regex(/^[A-Z_]+$/, "bad variable name"), z.string()).optional(),
    sides: z.array(z.strictObject({ label: z.string() })).optional(),
  });

  it("names the field of each issue, one per line part", () => {
    expect(parseWith(schema, { sides: [{ label: 1 }], extra: true })).toEqual({
      ok: false,
      error: "sides.0.label: expected string, received number; unknown field: extra",
    });
  });

  it("says what is wrong with a record's key, not only that it is invalid", () => {
    expect(parseWith(schema, { env: { "a b": "x" } })).toEqual({ ok: false, error: "env.a b: bad variable name" });
  });

  it("passes a good value through", () => {
    expect(parseWith(schema, { env: { A: "1" } })).toEqual({ ok: true, value: { env: { A: "1" } } });
  });
});
