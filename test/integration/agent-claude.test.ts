/**
 * Claude's ACP adapter (@zed-industries/claude-agent-acp, pinned in test/agents)
 * through the relay, offline against the fake Anthropic Messages API.
 */
import { expect, it } from "vitest";
import { parseAuthMethods, terminalAuthCommand } from "../../lib/features/connect/auth-methods";
import { DEFAULT_CLIENT_CAPABILITIES, withTerminalAuth } from "../../lib/protocol/client-capabilities";
import { resultOf } from "../agents/agent-relay";
import { defineAgentJourneys } from "../agents/journeys";

const g = defineAgentJourneys({
  kind: "claude",
  agentName: "Claude's ACP adapter",
  hello: { script: { text: ["Hello ", "from the fake API."] }, text: "Hello from the fake API." },
  writeTurns: (file) => [
    { tools: [{ name: "Write", input: { file_path: file, content: "hi\n" } }] },
    { text: ["Done."] },
  ],
  liveDiff: "equal",
  // ACP-SHUTDOWN-001 (ADVISORY): it is still running 2 s after its stdin closed, as the kit finds.
  conformance: { verdict: "CONFORMANT", failing: ["ACP-SCHEMA-002", "ACP-SHUTDOWN-001"] },
});

it("advertising terminal-auth, it lists its terminal login, shown as the exact command to run", async () => {
  const c = await g.client();
  const agent = await c.start();
  const init = resultOf(
    await c.request("initialize", {
      protocolVersion: 1,
      clientCapabilities: withTerminalAuth(DEFAULT_CLIENT_CAPABILITIES, true),
    }),
  );
  const [login] = parseAuthMethods(init);
  expect(login).toMatchObject({ id: "claude-login", type: "terminal", terminal: { args: ["--cli"] } });
  expect(terminalAuthCommand(login!, { command: agent.command, args: agent.args })?.line).toBe(
    `${agent.command} --cli`,
  );
  // Without the flag it lists none.
  const d = await g.client();
  await d.start();
  expect(resultOf(await d.request("initialize", { protocolVersion: 1, clientCapabilities: {} })).authMethods).toEqual(
    [],
  );
});
