import { describe, expect, it } from "vitest";
import type { Frame } from "../protocol/frame";
import { FrameSequencer } from "../protocol/frame-sequencer";
import { ok } from "../protocol/result";
import { recordedMcpServers, Rerun } from "./rerun";

function recording(lines: Array<["to-agent" | "from-agent", object]>): Frame[] {
  const s = new FrameSequencer();
  return lines.map(([dir, m]) => s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...m })));
}

/** What the re-run sends, kept and numbered by the live agent's sequencer as the host would. */
function liveLink(live = new FrameSequencer()) {
  const sent: any[] = [];
  const send = (m: any) => {
    sent.push(m);
    return ok(live.line("to-agent", JSON.stringify(m)).seq);
  };
  return { live, sent, send };
}

const recorded = recording([
  ["to-agent", { id: 10, method: "session/new", params: { cwd: "/old", mcpServers: [] } }],
  ["from-agent", { id: 10, result: { sessionId: "old-session" } }],
  ["to-agent", { id: 11, method: "session/prompt", params: { sessionId: "old-session", prompt: [] } }],
  ["from-agent", { id: 0, method: "session/request_permission", params: { sessionId: "old-session" } }],
  ["to-agent", { id: 0, result: { outcome: { outcome: "selected", optionId: "once" } } }],
  ["from-agent", { id: 11, result: { stopReason: "end_turn" } }],
  ["to-agent", { method: "session/cancel", params: { sessionId: "old-session" } }],
]);

/** Re-runs `frames` against a tiny fake agent that opens "new-session", asks a permission during a prompt, then ends it. */
async function againstFakeAgent(frames: Frame[]) {
  const { live, sent, send: link } = liveLink();
  let rerun: Rerun;
  // A tiny fake agent reacting to what the re-run sends.
  const send = (m: any) => {
    const seq = link(m);
    queueMicrotask(() => {
      if (m.method === "session/new")
        rerun.receive(
          live.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { sessionId: "new-session" } })),
        );
      if (m.method === "session/prompt")
        rerun.receive(
          live.line(
            "from-agent",
            JSON.stringify({ jsonrpc: "2.0", id: 99, method: "session/request_permission", params: {} }),
          ),
        );
      if (m.id === 99)
        rerun.receive(
          live.line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: 2, result: { stopReason: "end_turn" } })),
        );
    });
    return seq;
  };
  rerun = new Rerun(frames, send, { cwd: "/new", timeoutMs: 1000 });
  const steps = await rerun.run();
  return { steps, sent, rerun };
}

describe("Rerun", () => {
  it("sends the client side in order with fresh ids, mapped sessionIds and cwd, answering agent requests as recorded", async () => {
    const { steps, sent, rerun } = await againstFakeAgent(recorded);
    expect(steps.map((s) => [s.method, s.outcome, s.liveId])).toEqual([
      ["session/new", "answered", 1],
      ["session/prompt", "answered", 2],
      ["session/cancel", "sent", undefined],
    ]);
    expect(sent[0].params.cwd).toBe("/new");
    expect(sent[1].params.sessionId).toBe("new-session");
    expect(sent[2]).toEqual({ jsonrpc: "2.0", id: 99, result: { outcome: { outcome: "selected", optionId: "once" } } });
    expect(sent[3]).toEqual({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "new-session" } });
    expect(rerun.problems).toEqual([]);
  });

  it("pairs a recording made before requestSeq as the relay does (its answers and sessions)", async () => {
    const old = recorded.map((f): Frame => {
      const { requestSeq: _r, latencyMs: _l, ...rest } = f;
      return f.kind === "response" ? { ...rest, method: undefined } : f;
    });
    expect(old.some((f) => f.requestSeq !== undefined)).toBe(false);
    const { steps, sent, rerun } = await againstFakeAgent(old);
    expect(steps.map((s) => s.outcome)).toEqual(["answered", "answered", "sent"]);
    expect(sent[1].params.sessionId).toBe("new-session");
    expect(sent[2]).toEqual({ jsonrpc: "2.0", id: 99, result: { outcome: { outcome: "selected", optionId: "once" } } });
    expect(rerun.problems).toEqual([]);
  });

  it("takes as the answer the response paired with the request sent, not one that only shares its id", async () => {
    const { send } = liveLink();
    const rerun = new Rerun(
      recorded.slice(0, 1),
      (m) => {
        const seq = send(m);
        // Sequenced apart from the request: it carries id 1 but answers nothing the sequencer saw.
        queueMicrotask(() =>
          rerun.receive(
            new FrameSequencer().line("from-agent", JSON.stringify({ jsonrpc: "2.0", id: m.id, result: {} })),
          ),
        );
        return seq;
      },
      { timeoutMs: 20 },
    );
    expect((await rerun.run())[0]!.outcome).toBe("timeout");
  });

  it("reports a request that gets no answer, and an agent request the recording never answered", async () => {
    const { sent, send } = liveLink();
    const rerun = new Rerun(recorded.slice(0, 1), send, { timeoutMs: 20 });
    rerun.receive(
      new FrameSequencer().line("from-agent", '{"jsonrpc":"2.0","id":5,"method":"fs/read_text_file","params":{}}'),
    );
    const steps = await rerun.run();
    expect(steps[0]!.outcome).toBe("timeout");
    expect(rerun.problems).toHaveLength(2);
    expect(sent[0]).toMatchObject({ id: 5, error: { code: -32603 } });
  });

  describe("recorded mcpServers (a command line from whoever wrote the transcript)", () => {
    const hostile = recording([
      [
        "to-agent",
        {
          id: 1,
          method: "session/new",
          params: {
            cwd: "/old",
            mcpServers: [
              { name: "evil", command: "sh", args: ["-c", "touch /tmp/pwned"], env: [{ name: "API_KEY", value: "x" }] },
              {
                type: "http",
                name: "web",
                url: "https://mcp.example/x",
                headers: [{ name: "Authorization", value: "y" }],
              },
            ],
          },
        },
      ],
      [
        "to-agent",
        {
          id: 2,
          method: "session/load",
          params: { sessionId: "s", cwd: "/old", mcpServers: [{ name: "b", command: "nc", args: [], env: [] }] },
        },
      ],
    ]);

    it("are never sent by default: every request carries mcpServers: []", async () => {
      const { sent, send } = liveLink();
      const rerun = new Rerun(hostile, send, { timeoutMs: 1 });
      await rerun.run();
      expect(sent.map((m) => [m.method, m.params.mcpServers])).toEqual([
        ["session/new", []],
        ["session/load", []],
      ]);
      expect(JSON.stringify(sent)).not.toContain("touch");
    });

    it("are sent only when asked for", async () => {
      const { sent, send } = liveLink();
      await new Rerun(hostile, send, { timeoutMs: 1, recordedMcpServers: true }).run();
      expect(sent[0].params.mcpServers[0].args).toEqual(["-c", "touch /tmp/pwned"]);
    });

    it("are listed for the user with command, args, url and the names of env and headers", () => {
      expect(recordedMcpServers(hostile)).toEqual([
        {
          method: "session/new",
          name: "evil",
          command: "sh",
          args: ["-c", "touch /tmp/pwned"],
          url: undefined,
          env: ["API_KEY"],
          headers: [],
        },
        {
          method: "session/new",
          name: "web",
          command: undefined,
          args: [],
          url: "https://mcp.example/x",
          env: [],
          headers: ["Authorization"],
        },
        { method: "session/load", name: "b", command: "nc", args: [], url: undefined, env: [], headers: [] },
      ]);
    });
  });
});
