import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { comparisonInput } from "../../lib/contracts/compare-format";
import { renameBody, shareBody } from "../../lib/contracts/http-api";
import { readJsonBody } from "./http-io";

const body = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)));

describe("readJsonBody", () => {
  it("parses a body with its schema", async () => {
    expect(await readJsonBody(body('{"title":', '" Run "}'), renameBody, 1024)).toEqual({
      ok: true,
      value: { title: "Run" },
    });
  });

  it("reads an empty body as the given default, and refuses it without one", async () => {
    expect(await readJsonBody(body(""), shareBody, 1024, {})).toEqual({ ok: true, value: {} });
    expect(await readJsonBody(body(" \n"), renameBody, 1024)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^the body is not JSON/),
    });
  });

  it("names the field that is wrong", async () => {
    expect(await readJsonBody(body('{"showCommand":1}'), shareBody, 1024, {})).toEqual({
      ok: false,
      error: "showCommand: expected boolean, received number",
    });
    const saved = await readJsonBody(body('{"prompt":"p","sides":[{}]}'), comparisonInput, 1024);
    expect(saved.ok).toBe(false);
    expect(!saved.ok && saved.error).toMatch(/^sides/);
  });

  it("stops reading past the limit", async () => {
    expect(await readJsonBody(body("[", "1".repeat(100), "]"), shareBody, 50)).toEqual({
      ok: false,
      error: "the body may be at most 50 bytes",
    });
  });
});
