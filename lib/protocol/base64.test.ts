import { describe, expect, it } from "vitest";
import { fromBase64, toBase64 } from "./base64";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("toBase64", () => {
  it("matches Node's encoding for every padding length", () => {
    for (const s of ["", "f", "fo", "foo", "foob", "fooba", "foobar", "\u00ff\u00fe"]) {
      const b = bytes(s);
      expect(toBase64(b)).toBe(Buffer.from(b).toString("base64"));
    }
    const all = new Uint8Array(256).map((_, i) => i);
    expect(toBase64(all)).toBe(Buffer.from(all).toString("base64"));
  });
});

describe("fromBase64", () => {
  it("reads back what toBase64 wrote, every byte and padding length", () => {
    const all = new Uint8Array(256).map((_, i) => 255 - i);
    for (let n = 0; n <= 4; n++) expect(fromBase64(toBase64(all.subarray(0, n)))).toEqual(all.subarray(0, n));
    expect(fromBase64(toBase64(all))).toEqual(all);
  });

  it("skips characters outside the alphabet", () => {
    expect(new TextDecoder().decode(fromBase64("aGVs\nbG8=!"))).toBe("hello");
    expect(fromBase64("!!!")).toEqual(new Uint8Array());
  });
});
