import { describe, expect, it } from "vitest";
import { schemaOfUpdateKind, UPDATE_KINDS } from "./update-kinds";

describe("schemaOfUpdateKind", () => {
  it("names the first schema defining a kind: stable before unstable, v1 before v2", () => {
    expect(schemaOfUpdateKind("notice")).toBe("v1");
    expect(schemaOfUpdateKind("subagent_update")).toBe("v1 unstable");
    expect(schemaOfUpdateKind("state_update")).toBe("v2");
    expect(UPDATE_KINDS["v2 unstable"]).toContain("plan_removed");
  });

  it("names none for a kind no schema defines, own names only", () => {
    expect(schemaOfUpdateKind("vendor_sparkles")).toBeUndefined();
    expect(schemaOfUpdateKind("__proto__")).toBeUndefined();
    expect(schemaOfUpdateKind("")).toBeUndefined();
  });
});
