import { describe, expect, it } from "vitest";
import { tokenMatches } from "./tokens";

describe("tokenMatches", () => {
  it("matches only the exact token", () => {
    expect(tokenMatches("s3cret", "s3cret")).toBe(true);
    expect(tokenMatches("s3cre", "s3cret")).toBe(false);
    expect(tokenMatches("s3cret!", "s3cret")).toBe(false);
    expect(tokenMatches("", "s3cret")).toBe(false);
    expect(tokenMatches(undefined, "s3cret")).toBe(false);
    expect(tokenMatches(["s3cret"], "s3cret")).toBe(false);
  });
});
