import { describe, expect, it } from "vitest";
import { Correlator, RequestSeqFiller } from "./correlate";
import type { WireFrame } from "./frame";

describe("Correlator", () => {
  it("pairs a response with the request that went the other way, by id, once", () => {
    const c = new Correlator();
    c.request("to-agent", 1, "initialize", 100, 1);
    c.request("from-agent", 1, "fs/read_text_file", 110, 2);
    expect(c.response("from-agent", 1, 150)).toEqual({ method: "initialize", latencyMs: 50, requestSeq: 1 });
    expect(c.response("from-agent", 1, 160)).toBeUndefined();
    expect(c.response("to-agent", 1, 170)).toEqual({ method: "fs/read_text_file", latencyMs: 60, requestSeq: 2 });
  });

  it("keeps string and numeric ids apart", () => {
    const c = new Correlator();
    c.request("to-agent", "1", "a", 0, 1);
    expect(c.response("from-agent", 1, 5)).toBeUndefined();
    expect(c.response("from-agent", "1", 5)?.requestSeq).toBe(1);
  });

  it("lists unanswered and overdue requests, oldest first; clear forgets them", () => {
    const c = new Correlator();
    c.request("to-agent", 1, "session/prompt", 0, 1);
    c.request("to-agent", "x", "session/new", 900, 2);
    expect(c.unanswered("to-agent")).toEqual([
      { id: "1", method: "session/prompt", at: 0, seq: 1 },
      { id: "x", method: "session/new", at: 900, seq: 2 },
    ]);
    expect(c.overdue("to-agent", 1000, 500).map((r) => r.seq)).toEqual([1]);
    c.clear();
    expect(c.unanswered("to-agent")).toEqual([]);
  });
});

describe("RequestSeqFiller", () => {
  const frame = (seq: number, dir: WireFrame["dir"], kind: WireFrame["kind"], id: number, method?: string) =>
    ({ seq, ts: seq, dir, raw: "", kind, id, ...(method ? { method } : {}) }) as WireFrame;

  it("gives old frames the requestSeq the relay would have sent, and leaves a given one alone", () => {
    const fill = new RequestSeqFiller();
    fill.fill(frame(1, "to-agent", "request", 1, "initialize"));
    fill.fill(frame(2, "from-agent", "request", 1, "fs/read_text_file"));
    expect(fill.fill(frame(3, "to-agent", "response", 1)).requestSeq).toBe(2);
    expect(fill.fill(frame(4, "from-agent", "response", 1)).requestSeq).toBe(1);
    expect(fill.fill(frame(5, "from-agent", "response", 1)).requestSeq).toBeUndefined();
    fill.fill(frame(6, "to-agent", "request", 2, "session/new"));
    expect(fill.fill({ ...frame(7, "from-agent", "response", 2), requestSeq: 6 }).requestSeq).toBe(6);
  });
});
