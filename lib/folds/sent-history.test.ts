import { describe, expect, it } from "vitest";
import { appendSent, decodeSentHistory, encodeSentHistory, HISTORY_CAP, type SentEntry } from "./sent-history";

describe("sent history", () => {
  it("describes each frame as sent and keeps the newest HISTORY_CAP", () => {
    let h: readonly SentEntry[] = [];
    h = appendSent(h, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} }, 1, 10);
    h = appendSent(h, { jsonrpc: "2.0", method: "session/cancel", params: {} }, 2, 20);
    h = appendSent(h, { jsonrpc: "2.0", id: 0, result: {} }, 3, 30);
    h = appendSent(h, "not json", 4, 40);
    expect(h.map((e) => [e.kind, e.method, e.id])).toEqual([
      ["request", "initialize", 1],
      ["notification", "session/cancel", undefined],
      ["response", undefined, 0],
      ["other", undefined, undefined],
    ]);
    expect(h[3]).toEqual({ ts: 40, text: "not json", kind: "other", seq: 4 });
    for (let i = 0; i < HISTORY_CAP; i++) h = appendSent(h, "x", 5 + i);
    expect(h).toHaveLength(HISTORY_CAP);
    expect(h[0]!.seq).toBe(5);
  });

  it("round-trips through storage, newest entries first to stay when over the size", () => {
    let h: readonly SentEntry[] = [];
    for (let i = 1; i <= 50; i++)
      h = appendSent(h, { jsonrpc: "2.0", id: i, method: "m", params: { pad: "p".repeat(100) } }, i, i);
    expect(decodeSentHistory(encodeSentHistory(h))).toEqual(h);
    const small = encodeSentHistory(h, 2_000);
    expect(small.length).toBeLessThanOrEqual(2_000);
    const kept = decodeSentHistory(small);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.at(-1)).toEqual(h.at(-1));
    expect(kept).toEqual(h.slice(-kept.length));
    expect(encodeSentHistory([appendSent([], "y".repeat(50), 1, 1)[0]!], 10)).toBe("[]");
  });

  it("reads nothing from missing, broken or foreign storage, and skips malformed entries", () => {
    expect(decodeSentHistory(null)).toEqual([]);
    expect(decodeSentHistory("{not json")).toEqual([]);
    expect(decodeSentHistory('{"a":1}')).toEqual([]);
    const good = { ts: 1, text: "{}", kind: "other", seq: 1 };
    const request = {
      ts: 2,
      text: '{"jsonrpc":"2.0","id":1,"method":"m"}',
      kind: "request",
      seq: 2,
      method: "m",
      id: 1,
    };
    expect(
      decodeSentHistory(
        JSON.stringify([
          good,
          request,
          { ...good, kind: "evil" },
          { ...good, text: 5 },
          { ...good, id: {} },
          { ...request, text: "{oops" },
          null,
        ]),
      ),
    ).toEqual([good, request]);
  });
});
