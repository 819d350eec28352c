import { describe, expect, it } from "vitest";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import { checkElicitationUrl, describePending, elicitationSchemaProblem, ELICITATION_LIMITS } from "./agent-answers";

const s = new FrameSequencer();
const elicit = (params: object) =>
  describePending(
    s.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "elicitation/create", params })),
  );

describe("elicitation input is hostile", () => {
  it("shows only http(s) URLs as links", () => {
    expect(checkElicitationUrl("https://example.com/auth?x=1")).toEqual({ url: "https://example.com/auth?x=1" });
    expect(checkElicitationUrl("http://127.0.0.1:8080/")).toEqual({ url: "http://127.0.0.1:8080/" });
    expect(checkElicitationUrl("javascript:alert(1)").problem).toMatch(/only http\(s\) links.*javascript:/);
    expect(checkElicitationUrl("JAVASCRIPT:alert(1)").problem).toMatch(/only http\(s\)/);
    expect(checkElicitationUrl("data:text/html,<b>").problem).toMatch(/only http\(s\)/);
    expect(checkElicitationUrl("file:///etc/passwd").problem).toMatch(/only http\(s\)/);
    expect(checkElicitationUrl(" https://x").problem).toMatch(/control/);
    expect(checkElicitationUrl("https://x\n.evil").problem).toMatch(/control/);
    expect(checkElicitationUrl("https:///path").problem).toMatch(/no host/);
    expect(checkElicitationUrl("/relative").problem).toMatch(/not absolute/);
    expect(checkElicitationUrl(42).problem).toMatch(/not a string/);
    expect(checkElicitationUrl(`https://x/${"a".repeat(ELICITATION_LIMITS.urlLength)}`).problem).toMatch(/over 2048/);
  });

  it("bounds the requested schema's size, depth and fields", () => {
    expect(elicitationSchemaProblem({ type: "object", properties: { n: { type: "string" } } })).toBeUndefined();
    let deep: object = { type: "string" };
    for (let i = 0; i < 20; i++) deep = { type: "object", properties: { x: deep } };
    expect(elicitationSchemaProblem(deep)).toMatch(/deeper than 8/);
    const wide = { type: "object", properties: Object.fromEntries([...Array(100).keys()].map((i) => [`f${i}`, {}])) };
    expect(elicitationSchemaProblem(wide)).toMatch(/more than 64 fields/);
    const big = { type: "object", description: "x".repeat(40_000), properties: {} };
    expect(elicitationSchemaProblem(big)).toMatch(/over the 32768/);
  });

  it("the card's view drops a bad schema or URL and says why", () => {
    const v = elicit({ mode: "url", elicitationId: "e", url: "javascript:alert(1)", message: "Sign in" });
    expect(v).toMatchObject({ kind: "elicitation", mode: "url", url: undefined, elicitationId: "e" });
    expect(v.kind === "elicitation" && v.urlProblem).toMatch(/only http/);
    let deep: object = { type: "string" };
    for (let i = 0; i < 20; i++) deep = { type: "object", properties: { x: deep } };
    const f = elicit({ mode: "form", requestedSchema: deep, message: "?" });
    expect(f).toMatchObject({ kind: "elicitation", requestedSchema: undefined });
    expect(f.kind === "elicitation" && f.schemaProblem).toMatch(/deeper/);
  });
});
