import { describe, expect, it } from "vitest";
import { PendingRequests } from "./pending-requests";

describe("PendingRequests", () => {
  it("opens by seq, finds the newest per direction and id, closes by seq", () => {
    const p = new PendingRequests<{ seq: number; dir: "to-agent" | "from-agent"; id?: string | number | null }>();
    expect(p.open({ seq: 1, dir: "to-agent", id: 1 })).toBeUndefined();
    expect(p.open({ seq: 2, dir: "from-agent", id: 1 })).toBeUndefined();
    // The same id as a string is another id; the same id in flight again is reported.
    expect(p.open({ seq: 3, dir: "to-agent", id: "1" })).toBeUndefined();
    expect(p.open({ seq: 4, dir: "to-agent", id: 1 })).toEqual({ seq: 1, dir: "to-agent", id: 1 });
    expect(p.newestById("to-agent", 1)?.seq).toBe(4);
    expect(p.newestById("from-agent", 1)?.seq).toBe(2);
    expect(p.list("to-agent").map((r) => r.seq)).toEqual([1, 3, 4]);
    // Closing the older one leaves the id to the newer.
    expect(p.close(1)?.seq).toBe(1);
    expect(p.newestById("to-agent", 1)?.seq).toBe(4);
    expect(p.close(4)?.seq).toBe(4);
    expect(p.newestById("to-agent", 1)).toBeUndefined();
    expect(p.close(4)).toBeUndefined();
    expect([p.size, p.has(2), p.has(4)]).toEqual([2, true, false]);
    p.clear();
    expect(p.size).toBe(0);
  });
});
