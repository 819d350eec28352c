import { describe, expect, it } from "vitest";
import { RequestIdCounter } from "./request-ids";

describe("request ids", () => {
  it("hands out increasing ids above anything seen", () => {
    const ids = new RequestIdCounter();
    expect(ids.peek()).toBe(1);
    // The pool's initialize uses a string id: it does not count.
    ids.observe("pool-initialize");
    expect(ids.next()).toBe(1);
    expect(ids.next()).toBe(2);
    // A hand-typed frame with a big id moves the counter past it.
    ids.observe(41);
    expect(ids.peek()).toBe(42);
    expect(ids.next()).toBe(42);
    // Lower ids, fractions, null and unsafe numbers change nothing.
    for (const id of [3, 7.5, null, Number.MAX_SAFE_INTEGER + 2]) ids.observe(id);
    expect(ids.next()).toBe(43);
    expect(ids.max).toBe(43);
  });

  it("starts over for a new agent", () => {
    const ids = new RequestIdCounter();
    ids.observe(10);
    ids.reset();
    expect(ids.next()).toBe(1);
  });
});
