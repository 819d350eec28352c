import { afterEach, describe, expect, it } from "vitest";
import { childEnv, SPAWN_MARKER } from "./process-group";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe("childEnv", () => {
  it("drops the relay's own variables, keeps the rest, and marks each spawn uniquely", () => {
    process.env.ACP_PLAYGROUND_TOKEN = "secret";
    process.env.ACP_PLAYGROUND_DATA = "/data";
    process.env.SOME_TOOL_HOME = "/home/tool";
    const a = childEnv({ GEMINI_API_KEY: "k", ACP_PLAYGROUND_TOKEN: "from-a-profile", [SPAWN_MARKER]: "forged" });
    const b = childEnv();
    expect(Object.keys(a.env).filter((k) => k.startsWith("ACP_PLAYGROUND_"))).toEqual([SPAWN_MARKER]);
    expect(a.env).toMatchObject({ SOME_TOOL_HOME: "/home/tool", GEMINI_API_KEY: "k" });
    expect(a.env[SPAWN_MARKER]).toBe(a.marker);
    expect(a.marker).not.toBe("forged");
    expect(b.marker).not.toBe(a.marker);
  });
});
