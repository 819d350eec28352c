/**
 * The protocol matrix of docs/agents.md, produced by the playground itself:
 * starts the fake Gemini, OpenAI and Anthropic APIs on 127.0.0.1, a throw-away
 * HOME and data directory, and runs `acp-playground probe` against Gemini CLI,
 * Qwen Code, Claude's ACP adapter and the ACP SDK example agent (test/agents,
 * pinned). Offline. Prints the Markdown section; `--write` puts it into
 * docs/agents.md between its matrix markers, `--json FILE` keeps the reports.
 *
 * Run: npx tsx scripts/agents-matrix.ts [--write] [--json FILE]
 *
 * The probe's prompts meet a scripted model: "Reply with OK" gets "OK", the
 * file it asks for gets a write tool call into the probe's workspace, and the
 * turn it cancels streams slowly, so that the tool call and cancel rows show
 * what the agent does rather than what an echoing fake model does.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { format, resolveConfig } from "prettier";
import type { ProbeReport } from "../lib/contracts/reports";
import { buildMatrix, matrixToMarkdown } from "../lib/features/probe/matrix";
import { type AgentKind, AGENT_KINDS, agentProfile, isQwenMainLoop, prepareAgentHome } from "../test/agent-profiles";
import { startFakeGeminiApi, type Turn } from "../test/fake-gemini/server";
import { startFakeAnthropicApi } from "../test/fake-models/anthropic";
import type { ModelTurn } from "../test/fake-models/http";
import { startFakeOpenAiApi } from "../test/fake-models/openai";
import { makeGeminiHome } from "../test/gemini-home";

const root = path.resolve(import.meta.dirname, "..");
const DOC = path.join(root, "docs", "agents.md");
const START = "<!-- protocol-matrix:start -->";
const END = "<!-- protocol-matrix:end -->";
const PROFILES = ["gemini", ...AGENT_KINDS] as const;
const COUNT = Array.from({ length: 200 }, (_, i) => `${i + 1}\n`);

const { values } = parseArgs({ options: { write: { type: "boolean" }, json: { type: "string" } } });

execFileSync(process.execPath, [path.join(root, "scripts/ensure-agents.mjs")], { stdio: "inherit" });

const gemini = await startFakeGeminiApi();
const openai = await startFakeOpenAiApi(isQwenMainLoop);
const anthropic = await startFakeAnthropicApi();
const geminiHome = makeGeminiHome(gemini.url);
const base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-matrix-")));
const agentHome = path.join(base, "home");
// The probe makes each agent's workspace here: a new one means the next profile starts.
const workspaces = path.join(base, "tmp");
mkdirSync(agentHome);
mkdirSync(workspaces);
const apiUrl: Record<AgentKind, string | undefined> = {
  qwen: openai.url,
  claude: anthropic.url,
  "sdk-example": undefined,
};
const profiles = Object.fromEntries(
  AGENT_KINDS.map((kind) => {
    prepareAgentHome(kind, agentHome);
    return [kind, agentProfile(kind, apiUrl[kind], agentHome)];
  }),
);
writeFileSync(path.join(base, "config.json"), JSON.stringify({ profiles }));

/** The model turns for one probe run, in the order the probe prompts. */
function scriptFor(profile: (typeof PROFILES)[number], workspace: string): void {
  const file = path.join(workspace, "probe.txt");
  if (profile === "gemini") {
    const turns: Turn[] = [
      { parts: [{ text: "OK" }] },
      { parts: [{ functionCall: { name: "write_file", args: { file_path: file, content: "OK\n" } } }] },
      { parts: [{ text: "Done." }] },
      { parts: COUNT.map((text) => ({ text })), delayMs: 100 },
    ];
    gemini.script(...turns);
    return;
  }
  const api = profile === "qwen" ? openai : profile === "claude" ? anthropic : undefined;
  const tool = profile === "qwen" ? "write_file" : "Write";
  const turns: ModelTurn[] = [
    { text: ["OK"] },
    { tools: [{ name: tool, input: { file_path: file, content: "OK\n" } }] },
    { text: ["Done."] },
    { text: COUNT, delayMs: 100 },
  ];
  api?.script(...turns);
}

const seen = new Set<string>();
const watcher = watch(workspaces, (_event, name) => {
  if (!name?.startsWith("acp-probe-") || seen.has(name)) return;
  const profile = PROFILES[seen.size];
  seen.add(name);
  if (profile) scriptFor(profile, realpathSync(path.join(workspaces, name)));
});

let output = "";
try {
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(root, "bin/acp-playground.mjs"), "probe", ...PROFILES.flatMap((p) => ["--profile", p]), "--json"],
      {
        cwd: base,
        env: {
          ...process.env,
          ...geminiHome.env,
          TMPDIR: workspaces,
          ACP_PLAYGROUND_CONFIG: path.join(base, "config.json"),
          ACP_PLAYGROUND_DATA: path.join(base, "data"),
        },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`acp-playground probe exited with ${code}`);
} finally {
  watcher.close();
  await Promise.all([gemini.close(), openai.close(), anthropic.close()]);
  geminiHome.cleanup();
  rmSync(base, { recursive: true, force: true });
}

const { reports } = JSON.parse(output) as { reports: ProbeReport[] };
if (values.json) writeFileSync(values.json, `${JSON.stringify(reports, null, 2)}\n`);
const versions = reports.map((r) => `${r.profile} ${r.agent?.version ?? "(no agentInfo)"}`).join(", ");
const section = [
  START,
  `Produced on ${new Date().toISOString().slice(0, 10)} by \`npx tsx scripts/agents-matrix.ts --write\` ` +
    `(Node ${process.version}, ${versions}), offline against the fake model APIs.`,
  "",
  matrixToMarkdown(buildMatrix(reports)).trimEnd(),
  END,
].join("\n");

if (values.write) {
  const doc = readFileSync(DOC, "utf8");
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${DOC} has no ${START} … ${END} markers`);
  // Formatted as `npm run check` wants it (prettier aligns the table).
  const text = doc.slice(0, from) + section + doc.slice(to + END.length);
  writeFileSync(DOC, await format(text, { ...(await resolveConfig(DOC)), filepath: DOC }));
  process.stdout.write(`wrote the matrix into ${path.relative(root, DOC)}\n`);
} else {
  process.stdout.write(`${section}\n`);
}
