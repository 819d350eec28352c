import { describe, expect, it } from "vitest";
import { APP_SERVER_ANSWERABLE } from "../../../contracts/policies";
import { APP_SERVER_REQUESTS } from "../../../protocol/app-server-methods";
import appServerSchemaFile from "../../../protocol/app-server-schema.json";
import { createAppServerSchema, type AppServerSchemaFile } from "../../../protocol/schema-app-server";
import { isUnknownMethod } from "../../answers/policy";
import { appServerAnswer, approvalChoices, userInputQuestions, userInputResult } from "./policy";

describe("appServerAnswer", () => {
  it("accepts approvals under auto and declines them under deny", () => {
    for (const m of [APP_SERVER_REQUESTS.command_approval, APP_SERVER_REQUESTS.file_change_approval]) {
      expect(appServerAnswer(m, {}, "auto")).toEqual({ result: { decision: "accept" } });
      expect(appServerAnswer(m, {}, "deny")).toEqual({ result: { decision: "decline" } });
    }
  });

  it("answers the legacy approvals in their own vocabulary", () => {
    for (const m of [APP_SERVER_REQUESTS.exec_command_approval, APP_SERVER_REQUESTS.apply_patch_approval]) {
      expect(appServerAnswer(m, {}, "auto")).toEqual({ result: { decision: "approved" } });
      expect(appServerAnswer(m, {}, "deny")).toEqual({ result: { decision: "denied" } });
    }
  });

  it("grants the permissions asked for, or none", () => {
    const permissions = { network: { enabled: true } };
    const m = APP_SERVER_REQUESTS.permissions_approval;
    expect(appServerAnswer(m, { permissions }, "auto")).toEqual({ result: { permissions, scope: "turn" } });
    expect(appServerAnswer(m, { permissions }, "deny")).toEqual({ result: { permissions: {}, scope: "turn" } });
  });

  it("answers a question with each first option under auto, and refuses it under deny", () => {
    const m = APP_SERVER_REQUESTS.tool_user_input;
    const questions = [
      { id: "q1", header: "H", question: "Which?", options: [{ label: "A", description: "" }, { label: "B" }] },
      { id: "q2", header: "H", question: "Free text?" },
      { id: "__proto__", header: "H", question: "own key", options: [{ label: "X" }] },
    ];
    const auto = appServerAnswer(m, { questions }, "auto") as { result: { answers: Record<string, unknown> } };
    expect(auto.result.answers.q1).toEqual({ answers: ["A"] });
    expect(auto.result.answers.q2).toEqual({ answers: [] });
    expect(Object.hasOwn(auto.result.answers, "__proto__")).toBe(true);
    expect(appServerAnswer(m, { questions }, "deny")).toMatchObject({ error: { code: -32000 } });
  });

  it("knows nothing else, and every app-server request it answers is known to the policies", () => {
    expect(appServerAnswer("session/request_permission", {}, "auto")).toBeUndefined();
    for (const m of APP_SERVER_ANSWERABLE) {
      expect(appServerAnswer(m, {}, "auto")).toBeDefined();
      expect(isUnknownMethod(m)).toBe(false);
    }
    expect(isUnknownMethod("item/tool/call")).toBe(true);
  });
});

describe("approvalChoices", () => {
  it("offers a command approval's availableDecisions in the server's order", () => {
    const amendment = { acceptWithExecpolicyAmendment: { execpolicy_amendment: ["echo"] } };
    const choices = approvalChoices(APP_SERVER_REQUESTS.command_approval, {
      availableDecisions: ["accept", amendment, "cancel", "somethingNew"],
    });
    expect(choices.map((c) => c.label)).toEqual(["Accept", "Accept and allow similar commands", "Cancel"]);
    expect(choices[1]!.result).toEqual({ decision: amendment });
  });

  it("offers the four decisions when the request lists none, the legacy ones for the legacy approvals", () => {
    expect(approvalChoices(APP_SERVER_REQUESTS.file_change_approval, {}).map((c) => c.result.decision)).toEqual([
      "accept",
      "acceptForSession",
      "decline",
      "cancel",
    ]);
    expect(approvalChoices(APP_SERVER_REQUESTS.exec_command_approval, {}).map((c) => c.result.decision)).toEqual([
      "approved",
      "approved_for_session",
      "denied",
      "abort",
    ]);
    expect(approvalChoices(APP_SERVER_REQUESTS.tool_user_input, {})).toEqual([]);
  });
});

describe("the answers to item/permissions/requestApproval, by the pinned Codex's schema", () => {
  const { checker } = createAppServerSchema(appServerSchemaFile as AppServerSchemaFile);
  const m = APP_SERVER_REQUESTS.permissions_approval;
  // As Codex 0.171 asks it (test/agents/codex-history.test.ts): the paths twice, `read` null.
  const params = {
    threadId: "t",
    turnId: "u",
    itemId: "call_1_0",
    environmentId: "local",
    startedAtMs: 1,
    cwd: "/w",
    reason: "To publish.",
    permissions: {
      network: { enabled: true },
      fileSystem: { read: null, write: ["/o"], entries: [{ path: { type: "path", path: "/o" }, access: "write" }] },
    },
  };

  it("the request is what the schema says, and every answer the card, auto and deny give is a valid result", () => {
    expect(checker.validate("PermissionsRequestApprovalParams", params, "params")).toEqual([]);
    const results = [
      ...approvalChoices(m, params).map((c) => c.result),
      ...(["auto", "deny"] as const).map((p) => (appServerAnswer(m, params, p) as { result: unknown }).result),
    ];
    expect(results).toHaveLength(5);
    for (const result of results)
      expect(checker.validate("PermissionsRequestApprovalResponse", result, "result")).toEqual([]);
    expect(approvalChoices(m, params).map((c) => c.result.scope)).toEqual(["turn", "session", "turn"]);
    // The check has teeth: a scope Codex does not know is refused.
    expect(
      checker.validate("PermissionsRequestApprovalResponse", { permissions: {}, scope: "forever" }, "result"),
    ).not.toEqual([]);
  });
});

describe("userInputQuestions and userInputResult", () => {
  it("reads each question's options and whether it takes a free answer; answers by id", () => {
    const qs = userInputQuestions({
      questions: [
        { id: "q1", header: "Pick", question: "Which?", options: [{ label: "A", description: "" }], isOther: true },
        { id: "q2", header: "Key", question: "Token?", isSecret: true },
        { header: "no id", question: "dropped" },
      ],
    });
    expect(qs).toEqual([
      { id: "q1", header: "Pick", question: "Which?", options: ["A"], other: true, secret: false },
      { id: "q2", header: "Key", question: "Token?", options: [], other: false, secret: true },
    ]);
    expect(
      userInputResult([
        ["q1", ["A"]],
        ["q2", []],
      ]),
    ).toEqual({
      answers: { q1: { answers: ["A"] }, q2: { answers: [] } },
    });
  });
});
