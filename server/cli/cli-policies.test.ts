import { describe, expect, it } from "vitest";
import { flagPolicies } from "./cli-policies";
import { APP_SERVER_ANSWERABLE, POLICIES } from "../../lib/contracts/policies";

describe("flagPolicies", () => {
  it("gives permission requests, the fs methods and the terminal methods one action each", () => {
    const r = flagPolicies({ fs: "auto", terminal: "deny" }, POLICIES, { permission: "ask" });
    expect(r).toEqual({
      ok: true,
      value: {
        policies: {
          "session/request_permission": "ask",
          ...Object.fromEntries(APP_SERVER_ANSWERABLE.map((m) => [m, "ask"])),
          "fs/read_text_file": "auto",
          "fs/write_text_file": "auto",
          "terminal/create": "deny",
          "terminal/output": "deny",
          "terminal/wait_for_exit": "deny",
          "terminal/kill": "deny",
          "terminal/release": "deny",
        },
        answers: { fs: true, terminal: false },
      },
    });
  });

  it("leaves out the methods of a flag given neither a value nor a default", () => {
    const r = flagPolicies({}, POLICIES, { permission: "auto" });
    expect(r).toEqual({
      ok: true,
      value: {
        policies: {
          "session/request_permission": "auto",
          "item/commandExecution/requestApproval": "auto",
          "item/fileChange/requestApproval": "auto",
          ...Object.fromEntries(APP_SERVER_ANSWERABLE.map((m) => [m, "auto"])),
        },
        answers: { fs: false, terminal: false },
      },
    });
  });

  it("refuses a value outside the allowed ones, naming them", () => {
    expect(flagPolicies({ terminal: "ask" }, ["auto", "deny"], { permission: "auto" })).toEqual({
      ok: false,
      error: "--terminal must be auto or deny",
    });
    expect(flagPolicies({ permission: "yes" }, POLICIES, { permission: "auto" })).toEqual({
      ok: false,
      error: "--permission must be ask, auto or deny",
    });
  });
});
