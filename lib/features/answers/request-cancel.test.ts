import { describe, expect, it } from "vitest";
import { FrameIndex } from "../../folds/frame-index";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import {
  advertisedAuth,
  canWithdraw,
  cancelRequestFrame,
  describeAuthStatus,
  describeDismissal,
} from "./request-cancel";

describe("withdrawing requests", () => {
  it("builds the $/cancel_request notification of the spec", () => {
    expect(cancelRequestFrame(7)).toEqual({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 7 } });
    expect(cancelRequestFrame("a")).toEqual({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "a" } });
  });

  it("only the client's own unanswered requests with an id can be withdrawn", () => {
    const s = new FrameSequencer();
    const mine = s.line("to-agent", '{"jsonrpc":"2.0","id":1,"method":"session/list","params":{}}');
    const theirs = s.line("from-agent", '{"jsonrpc":"2.0","id":2,"method":"fs/read_text_file","params":{}}');
    const note = s.line("to-agent", '{"jsonrpc":"2.0","method":"session/cancel","params":{}}');
    expect(canWithdraw(mine, true)).toBe(true);
    expect(canWithdraw(mine, false)).toBe(false);
    expect(canWithdraw(theirs, true)).toBe(false);
    expect(canWithdraw(note, true)).toBe(false);
  });

  it("says what the agent dismissed, with hostile ids cut short", () => {
    const s = new FrameSequencer();
    const index = new FrameIndex();
    const add = (dir: "to-agent" | "from-agent", m: object) =>
      index.add(s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...m })));
    const long = "x".repeat(500);
    add("from-agent", { id: long, method: "fs/read_text_file", params: {} });
    add("from-agent", { method: "$/cancel_request", params: { requestId: long } });
    add("from-agent", {
      id: 3,
      method: "elicitation/create",
      params: { mode: "url", elicitationId: "e", url: "https://a" },
    });
    add("from-agent", { method: "elicitation/complete", params: { elicitationId: "e" } });
    add("from-agent", { method: "elicitation/complete", params: { elicitationId: "later" } });
    const [cancelled, completed, late] = index.dismissals.map(describeDismissal);
    expect(cancelled).toMatch(
      /^The agent cancelled fs\/read_text_file \(id "x+\.\.\.\) with \$\/cancel_request: its card was closed\.$/,
    );
    expect(cancelled!.length).toBeLessThan(200);
    expect(completed).toBe('The agent completed elicitation "e" (elicitation/complete): its card was closed.');
    expect(late).toBe('The agent completed elicitation "later" (elicitation/complete).');
  });
});

describe("logout and auth/status where advertised", () => {
  it("reads agentCapabilities.auth: {} advertises, null or omitted does not", () => {
    expect(advertisedAuth({ agentCapabilities: { auth: { logout: {}, status: {} } } })).toEqual({
      logout: true,
      status: true,
    });
    expect(advertisedAuth({ agentCapabilities: { auth: { logout: null } } })).toEqual({ logout: false, status: false });
    expect(advertisedAuth({ agentCapabilities: { auth: { logout: true } } })).toEqual({ logout: false, status: false });
    expect(advertisedAuth({})).toEqual({ logout: false, status: false });
    expect(advertisedAuth(undefined)).toEqual({ logout: false, status: false });
  });

  it("words auth/status's answer, unknown states as unknown", () => {
    expect(describeAuthStatus({ state: "not_required" })).toBe("not required");
    expect(describeAuthStatus({ state: "authenticated", accounts: [{}, {}] })).toBe("authenticated · 2 accounts");
    expect(describeAuthStatus({ state: "<script>" })).toBe("unknown");
    expect(describeAuthStatus(null)).toBe("unknown");
  });
});
