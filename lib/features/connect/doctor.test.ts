import { describe, expect, it } from "vitest";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import type { Frame } from "../../protocol/frame";
import { diagnose, DoctorWatch, earlyFindings, stderrTail, visibleBytes, type DoctorFacts } from "./doctor";

/** A conversation as the relay would sequence it: `>` to the agent, `<` from it. */
function conversation(...lines: string[]): Frame[] {
  const seq = new FrameSequencer({ wall: () => 1_000, mono: () => 0 });
  return lines.map((l) => seq.line(l.startsWith(">") ? "to-agent" : "from-agent", l.slice(1)));
}
const req = (id: number, method: string, params: unknown = {}) =>
  `>${JSON.stringify({ jsonrpc: "2.0", id, method, params })}`;
const res = (id: number, result: unknown) => `<${JSON.stringify({ jsonrpc: "2.0", id, result })}`;
const err = (id: number, error: unknown) => `<${JSON.stringify({ jsonrpc: "2.0", id, error })}`;
const INIT = req(0, "initialize", { protocolVersion: 1 });
const INIT_OK = res(0, { protocolVersion: 1, agentCapabilities: {} });
const facts = (frames: Frame[], more: Partial<DoctorFacts> = {}): DoctorFacts => ({
  command: "my-agent",
  frames,
  now: 31_000,
  ...more,
});
const kinds = (f: DoctorFacts) => diagnose(f).findings.map((x) => x.kind);

describe("the doctor", () => {
  it("finds nothing wrong with an agent that opens a session", () => {
    expect(diagnose(facts(conversation(INIT, INIT_OK, req(1, "session/new"), res(1, { sessionId: "s" }))))).toEqual({
      reached: "session",
      findings: [],
    });
  });

  it("names the command not found and the PATH searched", () => {
    const d = diagnose(
      facts([], { start: { reason: "not-found", command: "my-agent", searched: ["/usr/bin", "/bin"] } }),
    );
    expect(d.reached).toBe("nothing");
    expect(d.findings[0]).toMatchObject({ kind: "not-found", detail: "PATH searched: /usr/bin:/bin" });
    expect(d.findings[0]!.fix).toMatch(/absolute path/);
  });

  it("says an agent exited at once, with its code and stderr's tail", () => {
    const stderr = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n") + "\nError: unknown option\n";
    const d = diagnose(facts(conversation(INIT), { exit: { code: 2, signal: null }, stderr }));
    expect(d.findings).toHaveLength(1);
    expect(d.findings[0]!.title).toBe("It exited with code 2 without answering initialize");
    expect(d.findings[0]!.detail).toContain("Error: unknown option");
    expect(d.findings[0]!.detail).not.toContain("line 5\n");
    expect(diagnose(facts([], { exit: { code: null, signal: "SIGKILL" } })).findings[0]!.title).toMatch(
      /ended by SIGKILL before it was sent initialize/,
    );
  });

  it("shows the first bytes of stray stdout before the first frame, and between frames", () => {
    const banner = diagnose(facts(conversation("<\u001b[32mWelcome to zsh!\u001b[0m", INIT, INIT_OK)));
    expect(banner.findings[0]).toMatchObject({
      kind: "stdout-noise",
      title: "It writes something that is not JSON-RPC on stdout before its first frame",
    });
    expect(banner.findings[0]!.detail).toContain('"\\x1b[32mWelcome to zsh!\\x1b[0m"');
    const between = diagnose(
      facts(
        conversation(INIT, INIT_OK, "<loading model...", "<[1, 2]", req(1, "session/new"), res(1, { sessionId: "s" })),
      ),
    );
    expect(between.reached).toBe("session");
    expect(between.findings).toHaveLength(1);
    expect(between.findings[0]).toMatchObject({ severity: "warning", title: expect.stringMatching(/between frames$/) });
    expect(between.findings[0]!.detail).toMatch(/and 1 more such line/);
  });

  it("says initialize got no answer, for how long", () => {
    const d = diagnose(facts(conversation(INIT), { stderr: "waiting for login\n" }));
    expect(d.findings[0]).toMatchObject({ kind: "no-initialize-answer", title: "No answer to initialize after 30 s" });
    expect(d.findings[0]!.detail).toContain("waiting for login");
  });

  it("names a protocol version the client does not speak, answered or refused", () => {
    expect(kinds(facts(conversation(INIT, res(0, { protocolVersion: 7 }))))).toEqual(["protocol-version"]);
    expect(kinds(facts(conversation(INIT, res(0, { agentCapabilities: {} }))))).toEqual(["protocol-version"]);
    // Above the one asked for, even if the client knows it.
    expect(kinds(facts(conversation(INIT, res(0, { protocolVersion: 2 }))))).toEqual(["protocol-version"]);
    expect(
      kinds(facts(conversation(INIT, err(0, { code: -32602, message: "Unsupported protocol version 1" })))),
    ).toEqual(["protocol-version"]);
    expect(kinds(facts(conversation(INIT, err(0, { code: -32603, message: "boom" }))))).toEqual(["initialize-error"]);
  });

  it("offers the auth methods when session/new needs authentication, and names the variables missing", () => {
    const frames = conversation(
      INIT,
      res(0, {
        protocolVersion: 1,
        authMethods: [
          { id: "key", name: "API key", type: "env_var", vars: [{ name: "MY_AGENT_API_KEY" }] },
          { id: "login", name: "Log in" },
        ],
      }),
      req(1, "session/new"),
      err(1, { code: -32000, message: "Authentication required" }),
    );
    const d = diagnose(facts(frames, { envNames: ["PATH", "HOME"] }));
    expect(d.findings.map((f) => f.kind)).toEqual(["auth-required", "missing-env"]);
    expect(d.findings[0]!.authMethods!.map((m) => m.id)).toEqual(["key", "login"]);
    expect(d.findings[1]!.title).toContain("MY_AGENT_API_KEY");
    // Set: nothing missing; unknown (the browser): not judged.
    expect(kinds(facts(frames, { envNames: ["MY_AGENT_API_KEY"] }))).toEqual(["auth-required"]);
    expect(kinds(facts(frames))).toEqual(["auth-required"]);
  });

  it("reports another session/new error and a session/new never answered", () => {
    const asked = conversation(INIT, INIT_OK, req(1, "session/new"));
    expect(kinds(facts(asked))).toEqual(["no-session-answer"]);
    expect(kinds(facts(asked, { exit: { code: 1, signal: null } }))).toEqual(["exited"]);
    expect(
      kinds(facts(conversation(INIT, INIT_OK, req(1, "session/new"), err(1, { code: -32603, message: "x" })))),
    ).toEqual(["session-new-failed"]);
  });

  it("shows control characters and cuts long text", () => {
    expect(visibleBytes("a\tb\u0007")).toBe('"a\\tb\\x07"');
    expect(visibleBytes("x".repeat(100), 10)).toBe(`"${"x".repeat(10)}"…`);
    expect(stderrTail("")).toBe("");
    expect(stderrTail("y".repeat(5_000)).length).toBeLessThanOrEqual(1_501);
  });
});

describe("an agent that echoes its input (`acp-playground -- cat`)", () => {
  const initLine = INIT.slice(1);
  // What the relay sees with cat: initialize comes back as a request, the relay refuses it, and that comes back too.
  const refusal = JSON.stringify({ jsonrpc: "2.0", id: 0, error: { code: -32601, message: "Method not found" } });
  const cat = conversation(INIT, `<${initLine}`, `>${refusal}`, `<${refusal}`);

  it("is named as an echo, once, and not as an initialize error (the error was our own answer)", () => {
    const d = diagnose(facts(cat, { exit: { code: null, signal: "SIGTERM" } }));
    expect(d.findings.map((f) => f.kind)).toEqual(["echo"]);
    expect(d.findings[0]!.detail).toBe(
      "the client's initialize request (frame #1) came back from the agent as frame #2",
    );
    expect(d.findings[0]!.fix).toMatch(/not an ACP agent/);
    expect(JSON.stringify(d)).not.toContain("Method not found");
  });

  it("is found when our request comes back reformatted", () => {
    const jq = `<${JSON.stringify(JSON.parse(initLine), null, 1).replace(/\n/g, "")}`;
    expect(kinds(facts(conversation(INIT, jq)))).toEqual(["echo"]);
  });

  it("is not found in an agent whose answers happen to repeat one of ours", () => {
    // The client answers the agent's request 0 with {}; the agent answers the client's request 0 with {}.
    const same = JSON.stringify({ jsonrpc: "2.0", id: 0, result: {} });
    const frames = conversation(
      '<{"jsonrpc":"2.0","id":0,"method":"fs/read_text_file","params":{}}',
      `>${same}`,
      INIT,
      `<${same}`,
    );
    expect(earlyFindings(frames)).toEqual([]);
  });
});

describe("the doctor watching frames as they come", () => {
  it("names stray stdout the moment it arrives, before initialize has any answer", () => {
    const frames = conversation(INIT, "<hello from a shell profile");
    expect(earlyFindings(frames).map((f) => f.kind)).toEqual(["stdout-noise"]);
    const watch = new DoctorWatch();
    expect(watch.push(frames[0]!)).toBeUndefined();
    const said = watch.push(frames[1]!);
    expect(said).toEqual(diagnose(facts(frames)).findings[0]);
    expect(said!.detail).toContain('"hello from a shell profile"');
    // Said once.
    expect(watch.push(conversation("<more noise")[0]!)).toBeUndefined();
  });

  it("names an echo at the frame that echoes, once", () => {
    const frames = conversation(INIT, `<${INIT.slice(1)}`, `<${INIT.slice(1)}`);
    const watch = new DoctorWatch();
    const said = frames.map((f) => watch.push(f));
    expect(said.map((f) => f?.kind)).toEqual([undefined, "echo", undefined]);
  });

  it("says nothing of an agent that works", () => {
    const watch = new DoctorWatch();
    const frames = conversation(INIT, INIT_OK, req(1, "session/new"), res(1, { sessionId: "s" }));
    expect(frames.map((f) => watch.push(f)).filter(Boolean)).toEqual([]);
  });
});
