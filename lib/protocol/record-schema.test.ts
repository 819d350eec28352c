import { describe, expect, expectTypeOf, it } from "vitest";
import { field, pickFields, shapeIssue, type Infer } from "./record-schema";

const SHAPE = {
  name: field.string,
  count: field.count.opt(),
  side: field.oneOf("a", "b").says('must be "a" or "b"'),
  inner: field.object({ list: field.strings, note: field.nullable(field.string).opt() }),
} as const;

describe("a record declared once", () => {
  it("infers the type: required fields, then optional ones", () => {
    expectTypeOf<Infer<typeof SHAPE>>().toEqualTypeOf<{
      name: string;
      side: "a" | "b";
      inner: { list: string[]; note?: string | null };
      count?: number;
    }>();
  });

  it("names the first missing or wrong field, inner ones by their path", () => {
    const ok = { name: "n", side: "a", inner: { list: ["x"] } };
    expect(shapeIssue(SHAPE, ok)).toBeUndefined();
    expect(shapeIssue(SHAPE, { ...ok, count: 1.5 })).toBe("count must be an integer from 0");
    expect(shapeIssue(SHAPE, { ...ok, side: "c" })).toBe('side must be "a" or "b"');
    expect(shapeIssue(SHAPE, { ...ok, inner: { list: [1] } })).toBe("inner.list must be strings");
    expect(shapeIssue(SHAPE, { ...ok, inner: { list: [], note: 3 } })).toBe("inner.note must be a string or null");
    expect(shapeIssue(SHAPE, { ...ok, inner: [] })).toBe("inner must be an object");
    expect(shapeIssue(SHAPE, { side: "a" })).toBe("needs name");
    expect(shapeIssue(SHAPE, { ...ok, inner: {} })).toBe("needs inner.list");
  });

  it("copies the declared fields only, in the declared order", () => {
    const picked = pickFields(SHAPE, { side: "b", other: 1, name: "n", count: undefined });
    expect(Object.keys(picked)).toEqual(["name", "side"]);
  });
});
