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
  // As the kit finds (docs/conformance.md): a session never prompted is answered -32023 when resumed
  // (ACP-RESUME-001) or loaded (ACP-LOAD-003), and an `_` method without params -32603 (ACP-JSONRPC-004).
  conformance: {
    verdict: "NOT CONFORMANT",
    failing: ["ACP-JSONRPC-004", "ACP-RESUME-001", "ACP-SCHEMA-002", "ACP-LOAD-003"],
  },
});
