import { describe, expect, it } from "vitest";
import { parsePayload } from "./wire";

const parseRerunPayload = (payload: unknown) => parsePayload("transcript:rerun", payload);

describe("transcript:rerun payload", () => {
  it("takes ignore paths, and refuses what is not a list of dot paths", () => {
    expect(parseRerunPayload({ id: "t", ignore: ["result._meta.x", "**.timestamp"] })).toEqual({
      ok: true,
      value: { id: "t", ignore: ["result._meta.x", "**.timestamp"] },
    });
    expect(parseRerunPayload({ id: "t" })).toEqual({ ok: true, value: { id: "t" } });
    for (const ignore of ["a", ["a..b"], [""], [1], Array.from({ length: 101 }, () => "a")])
      expect(parseRerunPayload({ id: "t", ignore })).toMatchObject({ ok: false });
  });
});
