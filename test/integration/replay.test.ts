/**
 * Replaying transcripts: as a mock agent (`replay:<id>`), and re-run against a
 * live agent with a structural diff. Uses the shipped demo, recorded from the
 * real Gemini CLI, and fresh recordings of the real CLI against the fake API.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseTranscript } from "../../lib/contracts/transcript";
import type { Turn } from "../fake-gemini/server";
import { useGeminiRelay } from "../gemini-relay-setup";

const demo = parseTranscript(readFileSync(path.resolve(import.meta.dirname, "../../demo/gemini-demo.jsonl"), "utf8"));
const g = useGeminiRelay({ graceMs: 200 });

describe("mock agent from a transcript", () => {
  it("lists the shipped demo as a replay profile", async () => {
    const c = await g.client();
    const { info } = await c.emit("relay:info", {});
    expect(info.profiles.map((p: { name: string }) => p.name)).toContain("replay:demo-gemini");
  });

  it("plays the recorded agent side: the same frames for the same client frames", async () => {
    const c = await g.client();
    const agent = await c.start({ profile: "replay:demo-gemini", options: { speed: "instant" } });
    expect(agent.profile).toBe("replay:demo-gemini");
    const sent = demo.frames.filter((f) => f.dir === "to-agent");
    for (const f of sent) {
      if (f.kind === "response")
        await c.frame((g) => g.dir === "from-agent" && g.kind === "request" && g.id === f.id, `agent request ${f.id}`);
      await c.send(f.raw);
    }
    for (const f of sent) if (f.kind === "request") await c.response(f.id as number);
    const live = c.frames.filter((f) => f.dir === "from-agent").map((f) => f.raw);
    expect(live).toEqual(demo.frames.filter((f) => f.dir === "from-agent").map((f) => f.raw));
  });

  it("re-run against the mock agent gives an empty diff", async () => {
    const c = await g.client();
    const res = await c.emit("transcript:rerun", {
      id: "demo-gemini",
      profile: "replay:demo-gemini",
      options: { speed: "instant" },
    });
    expect(res.ok).toBe(true);
    expect(res.problems).toEqual([]);
    expect(res.steps.map((s: { method: string; outcome: string }) => `${s.method}:${s.outcome}`)).toEqual([
      "initialize:answered",
      "session/new:answered",
      "session/prompt:answered",
      "session/prompt:answered",
    ]);
    expect(res.diff).toMatchObject({ equal: true, patch: "" });
  });

  it("refuses a replay profile with no transcript or bad options", async () => {
    const c = await g.client();
    expect((await c.emit("agent:start", { profile: "replay:nope" })).error.code).toBe("unknown_profile");
    expect((await c.emit("agent:start", { profile: "replay:../../etc/passwd" })).error.code).toBe("unknown_profile");
    expect(
      (await c.emit("agent:start", { profile: "replay:demo-gemini", options: { speed: "warp" } })).error.code,
    ).toBe("invalid_payload");
  });
});

describe("re-run against the real Gemini CLI", () => {
  const turns: Turn[] = [
    { parts: [{ functionCall: { name: "write_file", args: { file_path: "PLACEHOLDER", content: "v1\n" } } }] },
    { parts: [{ text: "Done: " }, { text: "the file exists." }] },
  ];

  async function record(): Promise<string> {
    const c = await g.client();
    const agent = await c.start();
    await c.initialize();
    const sessionId = await c.newSession(g.workspace);
    g.api.script(...turnsFor(g.workspace));
    await c.send({
      jsonrpc: "2.0",
      id: 3,
      method: "session/prompt",
      params: { sessionId, prompt: [{ type: "text", text: "write it" }] },
    });
    const ask = await c.frame((f) => f.method === "session/request_permission" && f.kind === "request", "permission");
    await c.send({
      jsonrpc: "2.0",
      id: ask.id,
      result: { outcome: { outcome: "selected", optionId: "proceed_once" } },
    });
    await c.response(3);
    await c.emit("agent:stop", {});
    c.close();
    return agent.transcriptId!;
  }

  const turnsFor = (dir: string): Turn[] => [
    {
      parts: [
        { functionCall: { name: "write_file", args: { file_path: path.join(dir, "out.txt"), content: "v1\n" } } },
      ],
    },
    turns[1]!,
  ];

  it("gets an empty diff when the agent behaves the same, and a diff when it does not", async () => {
    const id = await record();
    rmSync(path.join(g.workspace, "out.txt"), { force: true });

    const c = await g.client();
    g.api.script(...turnsFor(g.workspace));
    const same = await c.emit("transcript:rerun", { id });
    expect(same.ok).toBe(true);
    expect(same.problems).toEqual([]);
    expect(same.diff.patch).toBe("");
    expect(same.diff.equal).toBe(true);
    expect(readFileSync(path.join(g.workspace, "out.txt"), "utf8")).toBe("v1\n");
    // The re-run went through this browser session's log like any agent.
    expect(
      c.frames.some((f) => f.dir === "to-agent" && f.kind === "response" && f.method === "session/request_permission"),
    ).toBe(true);

    rmSync(path.join(g.workspace, "out.txt"), { force: true });
    g.api.script(turnsFor(g.workspace)[0]!, { parts: [{ text: "Something else entirely." }] });
    const changed = await c.emit("transcript:rerun", { id });
    expect(changed.diff.equal).toBe(false);
    expect(changed.diff.patch).toContain("Something else entirely.");
    expect(changed.diff.patch).toContain("Done: the file exists.");
  });
});
