/**
 * Qwen Code (@qwen-code/qwen-code, pinned in test/agents) through the relay,
 * offline against the fake OpenAI-compatible chat-completions API.
 */
import { defineAgentJourneys } from "../agents/journeys";

defineAgentJourneys({
  kind: "qwen",
  agentName: "Qwen Code",
  hello: { script: { text: ["Hello ", "from the fake API."] }, text: "Hello from the fake API." },
  writeTurns: (file) => [
    { tools: [{ name: "write_file", input: { file_path: file, content: "hi\n" } }] },
    { text: ["Done."] },
  ],
  writesThroughClient: true,
  liveDiff: "equal",
  conformance: { verdict: "CONFORMANT", failing: ["ACP-SCHEMA-002"] },
});
