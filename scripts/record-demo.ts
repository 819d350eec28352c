/**
 * Records demo/gemini-demo.jsonl: real wire traffic of the real Gemini CLI,
 * driven through the relay against the project's fake Gemini API (offline).
 * Run: npx tsx scripts/record-demo.ts
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeGeminiApi } from "../test/fake-gemini/server";
import { makeGeminiHome } from "../test/gemini-home";
import { startTestRelay, TestClient } from "../test/relay-harness";

const root = path.resolve(import.meta.dirname, "..");
const api = await startFakeGeminiApi();
const home = makeGeminiHome(api.url);
Object.assign(process.env, home.env);
const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), "demo-project-")));
writeFileSync(path.join(workspace, "README.md"), "# demo project\n");
const relay = await startTestRelay({ workspaceRoots: [workspace] });
const c = new TestClient(relay.url, { token: "test-token" });
await c.connected();
const agent = await c.start({ options: { skipTrust: true } });

let id = 0;
const request = async (method: string, params: unknown) => {
  const n = ++id;
  await c.send({ jsonrpc: "2.0", id: n, method, params });
  return (await c.response(n, 60_000)).message as { result?: any };
};

await request("initialize", {
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  clientInfo: { name: "acp-playground", version: "0.1.0" },
});
const { result } = await request("session/new", { cwd: workspace, mcpServers: [] });
const sessionId = result.sessionId as string;

api.script({
  delayMs: 40,
  parts: [
    { text: "The user wants a short explanation of ACP.", thought: true },
    { text: "**ACP** (the Agent Client Protocol) lets an editor talk to a coding agent " },
    { text: "over JSON-RPC on stdio:\n\n- the client sends `initialize`, `session/new`, `session/prompt`;\n" },
    {
      text: "- the agent streams `session/update` notifications;\n- and asks the client for permissions, files and terminals.\n\n",
    },
    { text: '```json\n{"jsonrpc":"2.0","id":1,"method":"initialize"}\n```\n' },
  ],
});
await request("session/prompt", { sessionId, prompt: [{ type: "text", text: "What is ACP, in three lines?" }] });

const file = path.join(workspace, "hello.py");
api.script(
  {
    parts: [{ functionCall: { name: "write_file", args: { file_path: file, content: 'print("Hello from ACP")\n' } } }],
  },
  { delayMs: 40, parts: [{ text: "I created `hello.py`. " }, { text: "Run it with `python3 hello.py`." }] },
);
const prompt = c.send({
  jsonrpc: "2.0",
  id: ++id,
  method: "session/prompt",
  params: { sessionId, prompt: [{ type: "text", text: "Create hello.py that prints a greeting." }] },
});
await prompt;
const ask = await c.frame(
  (f) => f.method === "session/request_permission" && f.kind === "request",
  "permission",
  60_000,
);
const option = ((ask.message as any).params.options as Array<{ optionId: string; kind: string }>).find(
  (o) => o.kind === "allow_once",
)!;
await c.send({ jsonrpc: "2.0", id: ask.id, result: { outcome: { outcome: "selected", optionId: option.optionId } } });
await c.response(id, 60_000);

await c.emit("agent:stop", {});
const store = relay.server.relay.transcripts;
store.rename(agent.transcriptId!, "Demo: Gemini CLI explains ACP and writes a file");
const out = path.join(root, "demo", "gemini-demo.jsonl");
writeFileSync(out, store.read(agent.transcriptId!)!);
console.log(`wrote ${out} (${c.frames.length} frames)`);
c.close();
await relay.close();
await api.close();
home.cleanup();
rmSync(workspace, { recursive: true, force: true });
