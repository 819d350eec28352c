/**
 * The ACP SDK 1.x example agent (dist/examples/agent.js, pinned in test/agents)
 * through the relay: scripted, no model; every turn makes a tool call that asks
 * permission.
 */
import { defineAgentJourneys } from "../agents/journeys";

defineAgentJourneys({
  kind: "sdk-example",
  agentName: "The ACP SDK example agent",
  hello: { text: /^I'll help you with that\..*successfully updated the configuration/ },
  liveDiff: "equal",
  conformance: { verdict: "CONFORMANT", failing: ["ACP-INIT-004"] },
});
