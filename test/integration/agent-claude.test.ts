/**
 * Claude's ACP adapter (@zed-industries/claude-agent-acp, pinned in test/agents)
 * through the relay, offline against the fake Anthropic Messages API.
 */
import { defineAgentJourneys } from "../agents/journeys";

defineAgentJourneys({
  kind: "claude",
  agentName: "Claude's ACP adapter",
  hello: { script: { text: ["Hello ", "from the fake API."] }, text: "Hello from the fake API." },
  writeTurns: (file) => [
    { tools: [{ name: "Write", input: { file_path: file, content: "hi\n" } }] },
    { text: ["Done."] },
  ],
  liveDiff: "equal",
});
