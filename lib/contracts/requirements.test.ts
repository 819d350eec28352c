import { describe, expect, it } from "vitest";
import { judge, type CheckResult, type Requirement } from "./requirements";

const MUST: Requirement = { id: "R-M", tier: "MANDATORY", citation: "c", title: "must" };
const CAP: Requirement = {
  id: "R-C",
  tier: "CAPABILITY",
  citation: "c",
  title: "cap",
  capability: "agentCapabilities.loadSession",
};
const SHOULD: Requirement = { id: "R-A", tier: "ADVISORY", citation: "c", title: "should" };
const INFO: Requirement = { id: "R-I", tier: "INFORMATIONAL", citation: "c", title: "info" };
const ALL = [MUST, CAP, SHOULD, INFO];

const check = (requirement: string, status: CheckResult["status"]): CheckResult => ({
  requirement,
  status,
  detail: "",
});
const ctx = (advertised: boolean, blockedByAuth = false) => ({ advertised: () => advertised, blockedByAuth });

describe("judge", () => {
  it("is conformant when every MANDATORY passes, whatever ADVISORY and INFORMATIONAL say", () => {
    const c = judge(ALL, [check("R-M", "pass"), check("R-A", "fail"), check("R-I", "fail")], ctx(false));
    expect(c.verdict).toBe("CONFORMANT");
    expect(c.requirements.map((r) => r.status)).toEqual(["pass", "not applicable", "fail", "fail"]);
    expect(c.counts.ADVISORY.fail).toBe(1);
  });

  it("takes the worst of a requirement's checks", () => {
    const c = judge([MUST], [check("R-M", "pass"), check("R-M", "fail"), check("R-M", "skip")], ctx(true));
    expect(c.requirements[0]!.status).toBe("fail");
    expect(c.verdict).toBe("NOT CONFORMANT");
    expect(c.reasons).toEqual(["R-M fail"]);
  });

  it("counts an untested MANDATORY requirement against the verdict, a skipped one not", () => {
    expect(judge([MUST], [], ctx(true)).reasons).toEqual(["R-M not tested"]);
    expect(judge([MUST], [check("R-M", "skip")], ctx(true)).verdict).toBe("CONFORMANT");
  });

  it("fails an advertised capability that fails, and ignores one not advertised", () => {
    expect(judge([CAP], [check("R-C", "fail")], ctx(true)).reasons).toEqual(["R-C fail"]);
    const na = judge([CAP], [check("R-C", "fail")], ctx(false));
    expect(na.verdict).toBe("CONFORMANT");
    expect(na.requirements[0]!.status).toBe("not applicable");
  });

  it("is not conformant when sessions are blocked by auth", () => {
    const c = judge([MUST], [], ctx(true, true));
    expect(c.requirements[0]!.status).toBe("blocked by auth");
    expect(c.verdict).toBe("NOT CONFORMANT");
    expect(c.reasons).toEqual(["blocked by auth"]);
  });
});
