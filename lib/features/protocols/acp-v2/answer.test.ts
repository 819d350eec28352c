import { describe, expect, it } from "vitest";
import { answerV2 } from "./answer";

const request = {
  sessionId: "s",
  title: "Edit notes.txt?",
  subject: { type: "tool_call", toolCall: { toolCallId: "t", title: "Edit" } },
  options: [
    { optionId: "allow", name: "Allow", kind: "allow_once" },
    { optionId: "reject", name: "Reject", kind: "reject_once" },
  ],
};

describe("ACP v2's permission answers", () => {
  it("allows or rejects a v2 request (a subject, no toolCall) by its options", () => {
    expect(answerV2("session/request_permission", request, "auto")).toEqual({
      result: { outcome: { outcome: "selected", optionId: "allow" } },
    });
    expect(answerV2("session/request_permission", request, "deny")).toEqual({
      result: { outcome: { outcome: "selected", optionId: "reject" } },
    });
    expect(answerV2("session/request_permission", { ...request, options: [] }, "deny")).toEqual({
      result: { outcome: { outcome: "cancelled" } },
    });
  });

  it("answers a request without a subject (optional in v2's schema: null or omitted mean none)", () => {
    const { subject: _s, ...noSubject } = request;
    expect(answerV2("session/request_permission", noSubject, "auto")).toHaveProperty(
      "result.outcome.outcome",
      "selected",
    );
    expect(answerV2("session/request_permission", { ...noSubject, subject: null }, "deny")).toHaveProperty(
      "result.outcome.optionId",
      "reject",
    );
  });

  it("refuses malformed params with -32602 and leaves other methods to the relay", () => {
    expect(answerV2("session/request_permission", { ...request, subject: "edit" }, "auto")).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("subject") },
    });
    expect(answerV2("session/request_permission", { ...request, options: [{ optionId: 1 }] }, "auto")).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("options[0]") },
    });
    expect(answerV2("session/request_permission", null, "auto")).toMatchObject({ error: { code: -32602 } });
    expect(answerV2("elicitation/create", {}, "auto")).toBeUndefined();
  });
});
