import { describe, expect, it } from "vitest";
import { isObject } from "./json";

describe("isObject", () => {
  it("is true for JSON objects only: not null, arrays or primitives", () => {
    expect(isObject({})).toBe(true);
    expect(isObject(Object.create(null))).toBe(true);
    for (const v of [null, undefined, [], [1], "x", 1, true]) expect(isObject(v)).toBe(false);
  });
});
