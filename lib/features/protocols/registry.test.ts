import { describe, expect, it } from "vitest";
import { PROTOCOL_NAMES, PROTOCOLS } from "../../protocol/protocols";
import { EMPTY_FACTS } from "../../folds/agent-facts";
import { FrameSequencer } from "../../protocol/frame-sequencer";
import {
  conversationState,
  conversationTopic,
  emptyConversation,
  foldConversation,
  PROTOCOL_SPECS,
  specOf,
} from "./registry";
import { missingParts, SPEC_PARTS } from "./spec";

describe("the protocol registry", () => {
  it("has a whole spec for every protocol name, under its own name, over its own descriptor", () => {
    expect(Object.keys(PROTOCOL_SPECS).sort()).toEqual([...PROTOCOL_NAMES].sort());
    for (const name of PROTOCOL_NAMES) {
      const spec = PROTOCOL_SPECS[name];
      expect(missingParts(spec), name).toEqual([]);
      expect(spec.name).toBe(name);
      for (const [key, value] of Object.entries(PROTOCOLS[name]))
        expect((spec as unknown as Record<string, unknown>)[key], key).toEqual(value);
    }
  });

  it("names each part a spec lacks, so a protocol registered half-done fails above", () => {
    const whole = PROTOCOL_SPECS.acp;
    for (const part of SPEC_PARTS) {
      const { [part]: _gone, ...rest } = whole;
      expect(missingParts(rest)).toContain(part);
    }
    expect(missingParts({ ...whole, side: { open: whole.side.open } })).toEqual(["side.turn"]);
    expect(missingParts({ ...whole, promptClient: { ...whole.promptClient, cancel: 1 } })).toEqual([
      "promptClient.cancel",
    ]);
    expect(missingParts({ ...whole, compose: { ...whole.compose, notes: undefined } })).toEqual(["compose.notes"]);
    expect(missingParts({ ...whole, probe: "run" })).toEqual(["probe"]);
  });

  it("reads an absent protocol as ACP's, as records made before a second protocol are", () => {
    expect(specOf(undefined)).toBe(PROTOCOL_SPECS.acp);
    expect(specOf("codex-app-server")).toBe(PROTOCOL_SPECS["codex-app-server"]);
  });

  it("registers ACP v2 apart: asked for at Connect, never warm, probed with the kit's v2 ids", async () => {
    const v2 = specOf("acp-v2");
    expect(v2.poolable).toBe(false);
    expect(v2.answerable).not.toContain("fs/read_text_file");
    expect(v2.answerable).not.toContain("terminal/create");
    const sent: Array<{ method: string; params: unknown }> = [];
    const end = await v2.connect(
      {
        request: async (method: string, params: unknown) => {
          sent.push({ method, params });
          return method === "initialize"
            ? { kind: "result", result: { protocolVersion: 2, agentCapabilities: {} } }
            : { kind: "result", result: { sessionId: "s1" } };
        },
        progress: () => {},
        pooledInitialize: async () => {
          throw new Error("a v2 Connect never takes a warm agent");
        },
      } as never,
      { cwd: "/tmp", clientCapabilities: {} },
      {} as never,
      { pooled: false },
    );
    expect(sent[0]).toMatchObject({ method: "initialize", params: { protocolVersion: 2 } });
    expect(end.progress).toMatchObject({ step: "ready", requestedVersion: 2, negotiatedVersion: 2 });
    // Without fresh agents the v2 probe runs nothing and says why, under the kit's v2 ids.
    const report = await v2.probe({} as never, { cwd: "/tmp" });
    expect(report.conformance.verdict).toBe("NOT CONFORMANT");
    expect(report.conformance.parts.map((p) => p.variant)).toEqual(["v2"]);
    expect(report.checks.map((c) => c.requirement)).toContain("ACP-STATE-201");
    expect(report.checks.every((c) => c.status === "skip")).toBe(true);
  });

  it("answers approvals only where the protocol decides them itself", () => {
    expect(specOf("acp").answer("session/request_permission", {}, "auto")).toBeUndefined();
    expect(specOf("codex-app-server").answer("item/commandExecution/requestApproval", {}, "deny")).toEqual({
      result: { decision: "decline" },
    });
  });
});

describe("the conversation, typed by its protocol", () => {
  const s = new FrameSequencer();
  const line = (dir: "to-agent" | "from-agent", m: object) => s.line(dir, JSON.stringify({ jsonrpc: "2.0", ...m }));
  const acpLog = [
    line("to-agent", { id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } }),
    line("from-agent", { id: 1, result: { sessionId: "s1" } }),
    line("to-agent", {
      id: 2,
      method: "session/prompt",
      params: { sessionId: "s1", prompt: [{ type: "text", text: "  fix   the\nbuild  " }] },
    }),
  ];
  const start = (protocol: "acp" | "codex-app-server") => ({
    facts: EMPTY_FACTS,
    conversation: emptyConversation(protocol),
  });

  it("folds by the protocol's own spec, and names the tab from the conversation by that spec", () => {
    const acp = foldConversation("acp", acpLog, start("acp"));
    expect(acp.conversation.protocol).toBe("acp");
    expect(acp.facts.sessionId).toBe("s1");
    expect(conversationTopic(acp.conversation)).toBe("fix the build");
    const app = foldConversation(
      "codex-app-server",
      [
        line("to-agent", { id: 1, method: "thread/start", params: { cwd: "/w" } }),
        line("from-agent", { id: 1, result: { thread: { id: "t1" } } }),
      ],
      start("codex-app-server"),
    );
    expect(app.conversation.protocol).toBe("codex-app-server");
    expect(conversationState("codex-app-server", app.conversation).current.threadId).toBe("t1");
    expect(conversationTopic(app.conversation)).toBe("");
  });

  it("reads another protocol's conversation as empty, and keeps its own when a batch changes nothing", () => {
    const acp = foldConversation("acp", acpLog, start("acp"));
    expect(conversationState("codex-app-server", acp.conversation)).toBe(
      PROTOCOL_SPECS["codex-app-server"].emptyConversation,
    );
    const again = foldConversation("acp", [line("from-agent", { method: "_x/y", params: {} })], acp);
    expect(again.conversation).toBe(acp.conversation);
    // An app-server fold over an ACP conversation starts from its own empty one, never from ACP's.
    const switched = foldConversation("codex-app-server", [], acp);
    expect(switched.conversation.protocol).toBe("codex-app-server");
  });
});
