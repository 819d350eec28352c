import { describe, expect, it } from "vitest";
import { agentLabel } from "./format";

describe("agentLabel", () => {
  it("names the agent, says starting only before any frame, and a dash for an agent without agentInfo", () => {
    expect(agentLabel({ agentName: "gemini-cli", recording: true, frames: 0 })).toBe("gemini-cli");
    expect(agentLabel({ recording: true, frames: 0 })).toBe("starting…");
    expect(agentLabel({ recording: true, frames: 12 })).toBe("—");
    expect(agentLabel({ recording: false, frames: 0 })).toBe("—");
  });
});
