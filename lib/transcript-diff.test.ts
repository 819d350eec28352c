import { describe, expect, it } from "vitest";
import { FrameSequencer } from "./frame-sequencer";
import { diffRuns } from "./transcript-diff";

function run(sessionId: string, chunks: string[], opts: { toolId?: string; cwd?: string; id?: number } = {}) {
  const s = new FrameSequencer();
  const id = opts.id ?? 1;
  const cwd = opts.cwd ?? "/w";
  const frames = [
    s.line("to-agent", JSON.stringify({ jsonrpc: "2.0", id, method: "session/new", params: { cwd } })),
    s.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id, result: { sessionId } })),
    ...chunks.map((text) =>
      s.line(
        "from-agent",
        JSON.stringify({
          jsonrpc: "2.0",
          method: "session/update",
          params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } },
        }),
      ),
    ),
    s.line(
      "from-agent",
      JSON.stringify({
        jsonrpc: "2.0",
        method: "session/update",
        params: {
          sessionId,
          update: {
            sessionUpdate: "tool_call_update",
            toolCallId: opts.toolId ?? "t-1",
            timestamp: 5,
            locations: [{ path: `${cwd}/a.txt` }],
          },
        },
      }),
    ),
  ];
  return { frames, cwd };
}

describe("diffRuns", () => {
  it("ignores ids, sessionIds, toolCallIds, timestamps, cwd and chunk boundaries", () => {
    const a = run("s-1", ["Hel", "lo"], { toolId: "x1", cwd: "/tmp/a", id: 1 });
    const b = run("s-2", ["H", "ello"], { toolId: "y9", cwd: "/tmp/bb", id: 7 });
    expect(diffRuns(a, b)).toMatchObject({ equal: true, patch: "", added: 0, removed: 0 });
  });

  it("reports real differences as a patch", () => {
    const d = diffRuns(run("s", ["Hello"]), run("s", ["Goodbye"]));
    expect(d.equal).toBe(false);
    expect(d).toMatchObject({ added: 1, removed: 1 });
    expect(d.patch).toMatch(/^-.*Hello/m);
    expect(d.patch).toMatch(/^\+.*Goodbye/m);
  });
});
