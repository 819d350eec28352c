import { describe, expect, it } from "vitest";
import { agentLabel, formatDuration } from "./format";

describe("agentLabel", () => {
  it("names the agent, says starting only before any frame, and a dash for an agent without agentInfo", () => {
    expect(agentLabel({ agentName: "gemini-cli", recording: true, frames: 0 })).toBe("gemini-cli");
    expect(agentLabel({ recording: true, frames: 0 })).toBe("starting…");
    expect(agentLabel({ recording: true, frames: 12 })).toBe("—");
    expect(agentLabel({ recording: false, frames: 0 })).toBe("—");
  });
});

describe("formatDuration", () => {
  it("prints durations for people, in the unit that fits", () => {
    expect(formatDuration(0.42)).toBe("0.4 ms");
    expect(formatDuration(112.2)).toBe("112 ms");
    expect(formatDuration(4_210)).toBe("4.2 s");
    expect(formatDuration(112_214.6)).toBe("1.9 min");
    expect(formatDuration(25 * 60_000)).toBe("25 min");
    expect(formatDuration(2.3 * 3_600_000)).toBe("2.3 h");
    expect(formatDuration(Number.NaN)).toBe("—");
  });
});
