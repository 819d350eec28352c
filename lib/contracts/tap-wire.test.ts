import { describe, expect, it } from "vitest";
import { tapRefusal } from "./tap-wire";

describe("tapRefusal", () => {
  it("lets the admin (the relay's own token) watch and steer every tap", () => {
    for (const owner of [undefined, "alice"]) {
      expect(tapRefusal({}, owner, "watch")).toBeUndefined();
      expect(tapRefusal({}, owner, "inject")).toBeUndefined();
    }
  });

  it("lets a person watch and steer the taps their token opened", () => {
    expect(tapRefusal({ owner: "alice" }, "alice", "watch")).toBeUndefined();
    expect(tapRefusal({ owner: "alice" }, "alice", "inject")).toBeUndefined();
  });

  it("refuses a person another's tap, and the admin's, saying whose it is", () => {
    expect(tapRefusal({ owner: "bob" }, "alice", "watch")).toBe(
      "only the person who opened this tap, alice, or the server's admin can see and watch this tapped conversation",
    );
    expect(tapRefusal({ owner: "bob" }, "alice", "inject")).toMatch(/alice, or the server's admin can send into/);
    expect(tapRefusal({ owner: "bob" }, undefined, "inject")).toBe(
      "only the server's admin can send into this tapped conversation: it was opened with the relay's own token",
    );
  });
});
