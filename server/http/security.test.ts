import { describe, expect, it } from "vitest";
import { hostAllowed, originAllowed } from "./security";

describe("hostAllowed", () => {
  it("accepts only loopback names when bound to loopback (DNS rebinding)", () => {
    for (const host of ["127.0.0.1:3000", "localhost:3000", "[::1]:3000", "LOCALHOST", "app.localhost:1"]) {
      expect(hostAllowed(host, "127.0.0.1")).toBe(true);
    }
    for (const host of ["evil.example:3000", "127.0.0.1.evil.example", "10.0.0.1:3000", "", undefined, "a b"]) {
      expect(hostAllowed(host, "127.0.0.1")).toBe(false);
    }
  });

  it("accepts other names when HOST binds elsewhere", () => {
    expect(hostAllowed("box.lan:3000", "0.0.0.0")).toBe(true);
    expect(hostAllowed(undefined, "0.0.0.0")).toBe(false);
  });
});

describe("originAllowed", () => {
  it("accepts the server's own origin, listed origins, and no Origin at all", () => {
    expect(originAllowed("http://127.0.0.1:3000", "127.0.0.1:3000", [])).toBe(true);
    expect(originAllowed(undefined, "127.0.0.1:3000", [])).toBe(true);
    expect(originAllowed("https://ide.example", "127.0.0.1:3000", ["https://ide.example"])).toBe(true);
  });

  it("refuses foreign and malformed origins", () => {
    expect(originAllowed("http://evil.example", "127.0.0.1:3000", [])).toBe(false);
    expect(originAllowed("http://127.0.0.1:3001", "127.0.0.1:3000", [])).toBe(false);
    expect(originAllowed("null", "127.0.0.1:3000", [])).toBe(false);
    expect(originAllowed("file://x", "x", [])).toBe(false);
  });
});
