/** The probe against in-memory scripted agents: milliseconds, no process. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { FakeAgent, otherAgent, type AgentOptions } from "./test-agent";
import {
  commandLine,
  probePolicies,
  probeTerminals,
  STARTUP_ALLOWANCE,
  supportOf,
  type ProbeOptions,
  type ProbeResult,
  type Reply,
} from "./probe";
import { runProbe } from "../protocols/registry";
import { type ProbeRow } from "../../contracts/reports";
import type { Defs } from "../compose/schema-form";

const defs = (
  JSON.parse(
    readFileSync(
      createRequire(import.meta.url).resolve("@agentclientprotocol/sdk/schema/v1/schema.unstable.json"),
      "utf8",
    ),
  ) as { $defs: Defs }
).$defs;

const byCheck = (rows: ProbeRow[], check: string) => rows.find((r) => r.check.startsWith(check));
const requirement = (result: ProbeResult, id: string) =>
  result.conformance.parts.flatMap((p) => p.requirements).find((r) => r.id === id)!;

describe("runProbe", () => {
  it("answers the agent's permission request itself (allow once) and reports it", async () => {
    const agent = new FakeAgent(otherAgent());
    const { rows, facts } = await runProbe(agent, { cwd: "/tmp/ws", defs });
    expect(byCheck(rows, "tool call round trip")).toMatchObject({ outcome: "answered", conforms: true });
    expect(byCheck(rows, "tool call round trip")!.detail).toContain("session/request_permission → selected once");
    expect(facts.answered).toEqual([{ method: "session/request_permission", answer: "selected once" }]);
    expect(byCheck(rows, "agent request session/request_permission")).toMatchObject({ outcome: "answered" });
    expect(facts.usage).toEqual(["_meta.usage"]);
    expect(facts.authMethods).toEqual([{ id: "key", type: "env_var" }]);
    expect(facts.sessionCapabilities).toEqual(["fork", "list"]);
    expect(Object.values(probePolicies(true)).every((p) => p === "auto")).toBe(true);
  });

  it("by default advertises no terminal, refuses terminal requests, and reports that it ran none", async () => {
    const agent = new FakeAgent(otherAgent());
    const caps = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };
    const { rows, facts } = await runProbe(agent, { cwd: "/w", defs, clientCapabilities: caps });
    const inits = agent.sent.filter((m) => m.method === "initialize");
    expect(inits[1]!.params!.clientCapabilities).toEqual({ ...caps, terminal: false });
    const policies = probePolicies(false);
    expect(policies["terminal/create"]).toBe("deny");
    expect(policies["fs/read_text_file"]).toBe("auto");
    expect(facts.terminals).toEqual({ on: false, why: "terminals off: not opted in" });
    expect(facts.commands).toEqual([]);
    expect(byCheck(rows, "terminal commands run by the probe")).toMatchObject({
      outcome: "skipped",
      detail: "terminals off: not opted in, ran none",
    });
  });
});

const probe = (o: AgentOptions = {}, options: Partial<ProbeOptions> = {}) => {
  const agent = new FakeAgent(otherAgent(o));
  return runProbe(agent, { cwd: "/w", defs, ...options }).then((result) => ({ agent, result }));
};
const v1 = (r: ProbeResult) => r.conformance.parts.find((p) => p.variant === "v1")!;

describe("requirement-level verdicts", () => {
  it("calls an agent that does what the spec asks CONFORMANT, v1 unstable reported apart", async () => {
    const { result } = await probe();
    expect(result.conformance.verdict).toBe("CONFORMANT");
    expect(result.conformance.parts.map((p) => [p.variant, p.decides])).toEqual([
      ["v1", true],
      ["v1 unstable", false],
    ]);
    expect(v1(result).counts.MANDATORY).toMatchObject({ fail: 0, "not tested": 0 });
    // A capability not advertised is not applicable, whatever the agent answered.
    expect(requirement(result, "ACP-LOAD-001").status).toBe("not applicable");
    expect(requirement(result, "ACP-LIST-001")).toMatchObject({ tier: "CAPABILITY", status: "pass" });
    expect(byCheck(result.rows, "session/load")).toMatchObject({ requirements: ["ACP-LOAD-001", "PG-LOAD-002"] });
    expect(byCheck(result.rows, "session/load")!.conforms).toBeUndefined();
    expect(requirement(result, "ACP-SESSION-001").citation).toMatch(/session-setup\.mdx#creating-a-session/);
  });

  it("fails a sessionId answered twice by session/new, and passes fresh ones", async () => {
    const same = requirement((await probe({ sameSessionId: true })).result, "ACP-SESSION-002");
    expect(same.status).toBe("fail");
    expect(same.checks.find((c) => c.status === "fail")!.detail).toBe("sessionId the-one-session answered twice");
    const fresh = requirement((await probe()).result, "ACP-SESSION-002");
    expect(fresh.status).toBe("pass");
    expect(fresh.checks.map((c) => c.detail)).toContain("a new sessionId");
  });

  it("fails an advertised capability that fails: session/load of the session just used answered -32603", async () => {
    const { result } = await probe({ load: "fails" });
    expect(result.conformance.verdict).toBe("NOT CONFORMANT");
    // A load that fails replays nothing: PG-LOAD-002 fails with it, as the kit's ACP-LOAD-002 does.
    expect(v1(result).reasons).toEqual(["ACP-LOAD-001 fail", "PG-LOAD-002 fail"]);
    expect(requirement(result, "PG-LOAD-002").checks[0]!.detail).toMatch(
      /^nothing replayed: session\/load error -32603/,
    );
    const load = requirement(result, "ACP-LOAD-001");
    expect(load).toMatchObject({ tier: "CAPABILITY", status: "fail" });
    expect(load.checks[0]!.detail).toContain("error -32603: No previous sessions found for this project");
    // The failure's frames: the request and its response in the recorded log.
    const [req, res] = load.checks[0]!.frames!;
    expect(result.rows.find((r) => r.check.startsWith("session/load"))!.conforms).toBe(false);
    const { agent } = await probe({ load: "fails" });
    expect(agent.frames().find((f) => f.seq === req)).toBeDefined();
    expect(res).toBeGreaterThan(req!);
  });

  it("lets commands follow session/load's response, but not the conversation", async () => {
    const { result } = await probe({ load: "replays" });
    expect(requirement(result, "PG-LOAD-002")).toMatchObject({ status: "pass" });
    expect(result.conformance.verdict).toBe("CONFORMANT");
    const late = (await probe({ load: "late chunk" })).result;
    expect(requirement(late, "PG-LOAD-002")).toMatchObject({ status: "fail" });
    expect(requirement(late, "PG-LOAD-002").checks[0]!.detail).toBe(
      "1 conversation updates after the response (agent_message_chunk)",
    );
    expect(v1(late).reasons).toEqual(["PG-LOAD-002 fail"]);
  });

  it("flags extra root fields in results (models in session/new, sessionId and models in session/load) as ADVISORY", async () => {
    const { result } = await probe({ models: true, load: "replays" });
    const extra = requirement(result, "ACP-SCHEMA-002");
    expect(extra).toMatchObject({ tier: "ADVISORY", status: "fail" });
    expect(extra.checks[0]!.detail).toContain("session/new: models");
    expect(extra.checks[0]!.detail).toContain("session/load: sessionId, models");
    expect(result.conformance.verdict).toBe("CONFORMANT");
  });

  it("flags a missing agentInfo as ADVISORY, without changing the verdict", async () => {
    const { result } = await probe({ noAgentInfo: true });
    expect(requirement(result, "ACP-INIT-004")).toMatchObject({ status: "fail", tier: "ADVISORY" });
    expect(requirement(result, "ACP-INIT-004").checks[0]!.detail).toBe("no agentInfo");
    expect(result.conformance.verdict).toBe("CONFORMANT");
  });

  it("switches to a different mode and back, past one the agent refuses, and fails the refusal of a listed mode", async () => {
    const { agent, result } = await probe({ switches: "one refused" });
    expect(agent.sent.filter((m) => m.method === "session/set_mode").map((m) => m.params!.modeId)).toEqual([
      "autoEdit",
      "plan",
      "default",
    ]);
    // availableModes are "the modes the Agent can operate in": refusing one fails, as in the kit.
    const sw = requirement(result, "ACP-MODES-002");
    expect(sw.status).toBe("fail");
    expect(sw.checks[0]!.detail).toMatch(
      /^autoEdit refused \(error -32603: Cannot enable privileged.*\), default → plan accepted, back to default accepted$/,
    );
    expect(v1(result).reasons).toEqual(["ACP-MODES-002 fail"]);
    expect(requirement((await probe({ switches: "none refused" })).result, "ACP-MODES-002").status).toBe("pass");
    const none = (await probe({ switches: "all refused" })).result;
    expect(requirement(none, "ACP-MODES-002").status).toBe("fail");
    expect(v1(none).reasons).toEqual(["ACP-MODES-002 fail"]);
  });

  it("reports session/set_model as removed from the spec, an observation apart from v1", async () => {
    const { agent, result } = await probe({ models: true });
    expect(agent.sent.filter((m) => m.method === "session/set_model").map((m) => m.params!.modelId)).toEqual([
      "m2",
      "m1",
    ]);
    const model = requirement(result, "PG-UNSTABLE-SET-MODEL");
    expect(model).toMatchObject({ tier: "INFORMATIONAL", variant: "v1 unstable", status: "pass" });
    expect(byCheck(result.rows, "session/set_model (removed from the spec) to another model and back")).toBeDefined();
    expect(v1(result).requirements.some((r) => r.id === "PG-UNSTABLE-SET-MODEL")).toBe(false);
  });

  it("is blocked by auth when sessions need it and no method was chosen; authenticates with a chosen one", async () => {
    const { result } = await probe({ authRequired: true });
    expect(result.conformance.verdict).toBe("NOT CONFORMANT");
    expect(v1(result).reasons).toEqual(["blocked by auth"]);
    expect(requirement(result, "ACP-PROMPT-001").status).toBe("blocked by auth");
    const chosen = await probe({ authRequired: true }, { authMethod: "key" });
    expect(chosen.agent.sent.filter((m) => m.method === "authenticate")[0]!.params).toEqual({ methodId: "key" });
    expect(v1(chosen.result).reasons).toEqual([]);
    expect(byCheck(chosen.result.rows, "authenticate with key (chosen)")).toMatchObject({ outcome: "answered" });
  });
});

describe("cancellation", () => {
  it("fails a turn that streams on after session/cancel and ends end_turn; skips one that was already ending", async () => {
    const on = (await probe({ cancel: "streams on" })).result;
    expect(requirement(on, "ACP-CANCEL-001")).toMatchObject({ status: "fail", tier: "MANDATORY" });
    expect(v1(on).reasons).toEqual(["ACP-CANCEL-001 fail"]);
    const race = (await probe({ cancel: "ends at once" })).result;
    expect(requirement(race, "ACP-CANCEL-001").status).toBe("skipped");
    expect(byCheck(race.rows, "session/cancel")).toMatchObject({ outcome: "inconclusive" });
    expect(v1(race).reasons).toEqual([]);
  });
});

describe("probe terminals", () => {
  it("are on only when opted in, for an agent on this machine whose profile advertises them", () => {
    const caps = { terminal: true };
    expect(probeTerminals({ clientCapabilities: caps }).on).toBe(false);
    expect(probeTerminals({ clientCapabilities: caps, terminals: true }).on).toBe(true);
    expect(probeTerminals({ terminals: true }).on).toBe(true);
    const remote = probeTerminals({ clientCapabilities: caps, terminals: true, remote: true });
    expect(remote).toEqual({ on: false, why: expect.stringContaining("does not run on this machine") });
    expect(probeTerminals({ clientCapabilities: { terminal: false }, terminals: true }).on).toBe(false);
  });

  it("shows a command line as a shell reads it", () => {
    expect(commandLine("sh", ["-c", "id > /tmp/f"])).toBe("sh -c 'id > /tmp/f'");
    expect(commandLine("echo", ["it's", "a/b.c", ""])).toBe("echo 'it'\\''s' a/b.c ''");
  });

  it("sends session/fork a cwd, and calls set_mode / set_model only with what the agent listed", async () => {
    const none = new FakeAgent(otherAgent());
    const { rows } = await runProbe(none, { cwd: "/tmp/ws", defs });
    expect(none.sent.find((m) => m.method === "session/fork")?.params).toMatchObject({ cwd: "/tmp/ws" });
    expect(byCheck(rows, "session/fork")).toMatchObject({ outcome: "answered", support: "supported" });
    expect(byCheck(rows, "session/set_mode")).toMatchObject({ outcome: "not applicable" });
    expect(byCheck(rows, "session/set_model")).toMatchObject({ outcome: "not applicable" });
    expect(none.sent.some((m) => m.method === "session/set_mode" || m.method === "session/set_model")).toBe(false);

    const listed = new FakeAgent(otherAgent({ modes: true }));
    const r2 = (await runProbe(listed, { cwd: "/tmp/ws", defs })).rows;
    expect(listed.sent.find((m) => m.method === "session/set_mode")?.params).toMatchObject({ modeId: "ask" });
    expect(listed.sent.find((m) => m.method === "session/set_model")?.params).toMatchObject({ modelId: "m1" });
    expect(byCheck(r2, "session/set_model")).toMatchObject({ outcome: "answered", support: "supported" });
  });

  it("gives the first initialize the agent's start-up time, not one call's timeout", async () => {
    const agent = new FakeAgent(otherAgent());
    const timeouts: Array<number | undefined> = [];
    const request = agent.request.bind(agent);
    agent.request = (method, params, options) => {
      timeouts.push(options?.timeoutMs);
      return request(method, params, options);
    };
    await runProbe(agent, { cwd: "/ws", timeoutMs: 1_000 });
    expect(timeouts[0]).toBe(1_000 * STARTUP_ALLOWANCE);
    expect(timeouts[1]).toBe(1_000);
  });

  it("takes a -32700 answer without an id as the answer to the malformed line, and silence as no failure", async () => {
    const answered = await runProbe(new FakeAgent(otherAgent({ parseError: true })), { cwd: "/w", defs });
    expect(byCheck(answered.rows, "malformed line")).toMatchObject({ detail: "answered -32700 Parse error" });
    const silent = await runProbe(new FakeAgent(otherAgent()), { cwd: "/w", defs });
    // ACP v1 lists -32700 but requires no answer: an observation, never a failure.
    const row = byCheck(silent.rows, "malformed line")!;
    expect(row).toMatchObject({ outcome: "no reply", requirements: ["ACP-INFO-PARSE-001"] });
    expect(row.conforms).toBeUndefined();
    expect(requirement(silent, "ACP-INFO-PARSE-001")).toMatchObject({ tier: "INFORMATIONAL", status: "pass" });
    expect(requirement(silent, "ACP-INFO-PARSE-001").checks[0]!.detail).toBe(
      "silent (ACP v1 requires no answer); the connection stays usable",
    );
  });

  it("calls a cancel inconclusive when the turn ended before the cancel was sent", async () => {
    const fast = await runProbe(new FakeAgent(otherAgent({ fastCancel: true })), { cwd: "/w", defs });
    expect(byCheck(fast.rows, "session/cancel")).toMatchObject({ outcome: "inconclusive" });
    expect(byCheck(fast.rows, "session/cancel")!.conforms).toBeUndefined();
    const slow = await runProbe(new FakeAgent(otherAgent()), { cwd: "/w", defs });
    expect(byCheck(slow.rows, "session/cancel")).toMatchObject({ outcome: "answered", conforms: true });
  });

  it("classes answers as the registry's matrix does", () => {
    const reply = (message: object): Reply => ({
      kind: "result",
      result: undefined,
      frame: { seq: 1, ts: 0, dir: "from-agent", kind: "response", id: 1, raw: JSON.stringify(message), message },
    });
    expect(supportOf(reply({ id: 1, result: {} }))).toBe("supported");
    expect(supportOf(reply({ id: 1, error: { code: -32602, message: "bad" } }))).toBe("supported");
    expect(supportOf(reply({ id: 1, error: { code: -32002, message: "nf" } }))).toBe("supported");
    expect(supportOf(reply({ id: 1, error: { code: -32601, message: "nf" } }))).toBe("not found");
    expect(supportOf(reply({ id: 1, error: { code: -32000, message: "x" } }))).toBe("auth required");
    expect(supportOf(reply({ id: 1, error: { code: -32603, message: "Authentication required" } }))).toBe(
      "auth required",
    );
    expect(supportOf(reply({ id: 1, error: { code: -32603, message: "boom" } }))).toBe("other");
    expect(supportOf({ kind: "failed", reason: "timeout", message: "no answer" })).toBe("other");
  });
});
