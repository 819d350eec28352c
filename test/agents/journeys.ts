/**
 * The journeys every agent goes through, as they run against Gemini: Connect
 * (lib/features/connect/flow with real requests), a prompt turn with streamed text, a
 * tool call answered on its permission card, record, replay as a mock agent
 * and re-run live. One journey per test, so a failure names it.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CLIENT_CAPABILITIES } from "../../lib/protocol/client-capabilities";
import { runConnect } from "../../lib/features/connect/flow";
import type { ModelTurn } from "../fake-models/http";
import type { ProbeReport } from "../../lib/contracts/reports";
import { type AgentClient, type AgentKind, type AgentRelay, resultOf, useAgentRelay } from "./agent-relay";

export interface AgentJourneySpec {
  kind: AgentKind;
  agentName: string;
  /** What the prompt turn streams (scripted on the fake API, or the agent's own). */
  hello: { script?: ModelTurn; text: string | RegExp };
  /** Turns that make the agent write `file` (none for an agent without a model). */
  writeTurns?: (file: string) => ModelTurn[];
  /** The agent writes through the relay's fs/write_text_file rather than on its own. */
  writesThroughClient?: boolean;
  /**
   * What a live re-run's diff may still contain, beyond lines reordered: "uuids" while the playground does not
   * normalise random UUIDs (Qwen Code's `_meta["qwen.branchPoint"]`; issue #12 part B).
   */
  liveDiff: "equal" | "uuids";
  /**
   * The probe's verdict and the requirements that fail (any tier), as recorded in
   * docs/conformance.md beside the ACP test kit's.
   */
  conformance: { verdict: "CONFORMANT" | "NOT CONFORMANT"; failing: string[] };
}

const FILE = "hello.txt";
// Qwen Code takes 7-14 s to initialize on a loaded 2-core machine; record + re-run start it twice.
const JOURNEY_MS = 180_000;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Registers the journeys; returns the set-up so a file can add its agent's own tests. */
export function defineAgentJourneys(spec: AgentJourneySpec): AgentRelay {
  const g = useAgentRelay(spec.kind);

  async function connect(c: AgentClient): Promise<string> {
    const end = await runConnect(
      {
        start: async () => {
          await c.start();
          return { ok: true, value: { pooled: false } };
        },
        pooledInitialize: async () => undefined,
        request: (method, params) => c.request(method, params, 90_000),
        progress: () => {},
      },
      {
        cwd: g.workspace,
        protocolVersion: 1,
        clientCapabilities: DEFAULT_CLIENT_CAPABILITIES,
      },
    );
    expect(end, JSON.stringify(end)).toMatchObject({ step: "ready" });
    return end.sessionId!;
  }

  /** A prompt that asks permission for a write; the card is answered with allow-once. */
  async function toolTurn(c: AgentClient, sessionId: string): Promise<void> {
    const target = path.join(g.workspace, FILE);
    if (spec.writeTurns) g.api!.script(...spec.writeTurns(target));
    const id = await c.sendRequest("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: `Write ${FILE}` }],
    });
    const ask = await c.frame(
      (f) => f.kind === "request" && f.method === "session/request_permission",
      "permission request",
      90_000,
    );
    expect(ask.dir).toBe("from-agent");
    // The relay leaves permissions to the user under the default policy.
    expect(c.frames.some((f) => f.dir === "to-agent" && f.method === "session/request_permission")).toBe(false);
    const options = (ask.message as any).params.options as Array<{ optionId: string; kind: string }>;
    const allowOnce = options.find((o) => o.kind === "allow_once")!.optionId;
    await c.send({ jsonrpc: "2.0", id: ask.id, result: { outcome: { outcome: "selected", optionId: allowOnce } } });
    const done = await c.response(id, 90_000);
    expect(done.message).toMatchObject({ result: { stopReason: "end_turn" } });
  }

  describe(`${spec.agentName} through the relay`, () => {
    it(
      "Connect: initialize and session/new",
      async () => {
        const c = await g.client();
        const sessionId = await connect(c);
        expect(sessionId).toMatch(/\S/);
        const init = c.frames.find((f) => f.dir === "from-agent" && f.method === "initialize")!;
        expect(init.message).toMatchObject({ result: { protocolVersion: 1 } });
        // These agents open a session without authenticate: Connect must not call it on its own.
        expect(c.frames.some((f) => f.method === "authenticate")).toBe(false);
      },
      JOURNEY_MS,
    );

    it(
      "a prompt turn streams the agent's text",
      async () => {
        const c = await g.client();
        const sessionId = await connect(c);
        await c.emit("policy:set", { policies: { "session/request_permission": "auto" } });
        if (spec.hello.script) g.api!.script(spec.hello.script);
        const done = await c.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Say hello" }] });
        expect(resultOf(done)).toMatchObject({ stopReason: "end_turn" });
        if (typeof spec.hello.text === "string") expect(c.messageText()).toBe(spec.hello.text);
        else expect(c.messageText()).toMatch(spec.hello.text);
      },
      JOURNEY_MS,
    );

    it(
      "a tool call: the permission is answered on its card and the file is written",
      async () => {
        const c = await g.client();
        const sessionId = await connect(c);
        if (spec.writesThroughClient)
          await c.emit("policy:set", { policies: { "fs/read_text_file": "auto", "fs/write_text_file": "auto" } });
        rmSync(path.join(g.workspace, FILE), { force: true });
        await toolTurn(c, sessionId);
        const statuses = [...c.updates("tool_call_update"), ...c.updates("tool_call")].map(
          (f) => (f.message as any).params.update.status,
        );
        expect(statuses).toContain("completed");
        if (!spec.writeTurns) return;
        expect(readFileSync(path.join(g.workspace, FILE), "utf8")).toBe("hi\n");
        const write = c.frames.find((f) => f.method === "fs/write_text_file" && f.kind === "request");
        if (spec.writesThroughClient) {
          expect(write?.message).toMatchObject({ params: { path: path.join(g.workspace, FILE), content: "hi\n" } });
          const answer = c.frames.find((f) => f.dir === "to-agent" && f.kind === "response" && f.id === write!.id);
          expect(answer?.message).toMatchObject({ result: {} });
        } else {
          expect(write).toBeUndefined();
        }
      },
      JOURNEY_MS,
    );

    async function record(): Promise<string> {
      const c = await g.client();
      const sessionId = await connect(c);
      if (spec.writesThroughClient)
        await c.emit("policy:set", { policies: { "fs/read_text_file": "auto", "fs/write_text_file": "auto" } });
      rmSync(path.join(g.workspace, FILE), { force: true });
      await toolTurn(c, sessionId);
      const agent = (await c.emit("agent:stop", {})) as { ok: boolean };
      expect(agent.ok).toBe(true);
      const list = await fetch(`${g.relay.url}/api/transcripts`, { headers: { authorization: "Bearer test-token" } });
      const meta = ((await list.json()) as { transcripts: Array<Record<string, unknown>> }).transcripts.find(
        (m) => m.profile === spec.kind && m.turns === 1 && m.recording === false,
      );
      expect(meta).toBeDefined();
      return meta!.id as string;
    }

    it(
      "records a transcript and replays it as a mock agent with an empty diff",
      async () => {
        const id = await record();
        const c = await g.client();
        const res = await c.emit("transcript:rerun", { id, profile: `replay:${id}`, options: { speed: "instant" } });
        expect(res.ok, JSON.stringify(res.error)).toBe(true);
        expect(res.problems).toEqual([]);
        expect(res.diff.patch).toBe("");
        expect(res.diff.equal).toBe(true);
      },
      JOURNEY_MS,
    );

    it(
      "is probed: initialize and a prompt turn conform, and the report is kept",
      async () => {
        const c = await g.client();
        if (spec.hello.script) g.api!.script(spec.hello.script);
        // The probe runs every kit requirement in one agent (a dozen turns): minutes for a real agent on a loaded machine.
        const res = (await c.emit("agent:probe", { profile: spec.kind }, JOURNEY_MS - 10_000)) as {
          ok: boolean;
          report: ProbeReport;
        };
        expect(res.ok, JSON.stringify(res).slice(0, 500)).toBe(true);
        const row = (check: string) => res.report.rows.find((r) => r.check === check);
        expect(row("initialize with protocolVersion 1")).toMatchObject({ conforms: true });
        expect(row("session/prompt (one text block)")).toMatchObject({ conforms: true });
        const failing = res.report.conformance!.parts.flatMap((p) =>
          p.requirements.filter((r) => r.status === "fail").map((r) => r.id),
        );
        const seen = { verdict: res.report.conformance!.verdict, failing };
        // On a mismatch, say what each failing requirement saw.
        const why = res.report.conformance!.parts.flatMap((p) =>
          p.requirements
            .filter((r) => r.status === "fail")
            .map((r) => `${r.id}: ${r.checks.map((c) => c.detail).join("; ")}`),
        );
        expect(seen, why.join("\n")).toEqual(spec.conformance);
        const kept = await fetch(`${g.relay.url}/api/probes/${res.report.id}`, {
          headers: { authorization: "Bearer test-token" },
        });
        expect(kept.status).toBe(200);
      },
      JOURNEY_MS,
    );

    it(
      "re-runs the recording against the live agent",
      async () => {
        const id = await record();
        rmSync(path.join(g.workspace, FILE), { force: true });
        if (spec.writeTurns) g.api!.script(...spec.writeTurns(path.join(g.workspace, FILE)));
        const c = await g.client();
        const res = await c.emit("transcript:rerun", { id });
        expect(res.ok, JSON.stringify(res.error)).toBe(true);
        expect(res.problems).toEqual([]);
        expect(res.steps.every((s: { outcome: string }) => s.outcome === "answered")).toBe(true);
        if (spec.writesThroughClient) {
          // The recording answers the agent's requests in a re-run: the write is asked for, not done.
          const write = c.frames.find((f) => f.method === "fs/write_text_file" && f.kind === "request");
          expect(write?.message).toMatchObject({ params: { path: path.join(g.workspace, FILE) } });
          expect(existsSync(path.join(g.workspace, FILE))).toBe(false);
        } else if (spec.writeTurns) expect(existsSync(path.join(g.workspace, FILE))).toBe(true);
        // The changed lines of the diff, sorted; UUIDs masked where they are random per run.
        const changed = (sign: string) =>
          (res.diff.patch as string)
            .split("\n")
            .filter((l) => l.startsWith(sign) && !l.startsWith(sign.repeat(3)))
            .map((l) => (spec.liveDiff === "uuids" ? l.slice(1).replace(UUID, "<uuid>") : l.slice(1)))
            .sort();
        if (spec.liveDiff === "uuids") expect(changed("-").length).toBeGreaterThan(0);
        // The same lines on both sides. With "equal", at most reordered: an agent may send a tool call's
        // update and its permission request in either order (Claude's adapter does, by timing).
        expect(changed("+")).toEqual(changed("-"));
      },
      JOURNEY_MS,
    );
  });
  return g;
}
