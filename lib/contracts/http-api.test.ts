import { describe, expect, it } from "vitest";
import { parseWith } from "../protocol/contract";
import { renameBody, shareBody } from "./http-api";

describe("HTTP API bodies", () => {
  it("share: showCommand is optional and boolean; nothing else is accepted", () => {
    expect(parseWith(shareBody, {})).toEqual({ ok: true, value: {} });
    expect(parseWith(shareBody, { showCommand: true })).toEqual({ ok: true, value: { showCommand: true } });
    expect(parseWith(shareBody, { showCommand: "yes" })).toEqual({
      ok: false,
      error: "showCommand: expected boolean, received string",
    });
    expect(parseWith(shareBody, { showCommand: true, token: "x" })).toEqual({
      ok: false,
      error: "unknown field: token",
    });
    expect(parseWith(shareBody, [])).toMatchObject({ ok: false });
  });

  it("rename: a trimmed title of 1..200 characters", () => {
    expect(parseWith(renameBody, { title: "  Demo run " })).toEqual({ ok: true, value: { title: "Demo run" } });
    for (const title of ["", "   ", "x".repeat(201)])
      expect(parseWith(renameBody, { title })).toEqual({
        ok: false,
        error: "title: must be a non-empty string of at most 200 characters",
      });
    expect(parseWith(renameBody, {})).toEqual({ ok: false, error: "title: expected string, received undefined" });
  });
});
