/**
 * The ACP test kit (acp-tck, Python) beside the probe on the pinned agents, requirement by
 * requirement: starts the fake Gemini, OpenAI and Anthropic APIs on 127.0.0.1 and throw-away
 * HOMEs (as scripts/agents-matrix.ts), runs `acp-playground probe --json` against each agent,
 * then the kit's v1 suite against the same command line and environment, and prints the table
 * (lib/features/probe/tck-compare.ts). `--write` puts it into docs/conformance.md between its markers;
 * `--json FILE` keeps both reports. Offline.
 *
 * Run: npx tsx scripts/tck-compare.ts [--agents sdk-example,qwen,claude,gemini] [--write] [--json FILE]
 *      [--kit DIR] (default ../shared/tools/acp-tck, or ACP_TCK_DIR)
 *      npx tsx scripts/tck-compare.ts --from FILE [--from FILE...] [--write]: the table from kept reports
 *
 * The kit needs python3 with pytest and jsonschema (Debian: python3-pytest python3-jsonschema);
 * nothing else in the project needs it. The probe's model turns are scripted as in
 * agents-matrix.ts (OK, a file write, a slow count for the cancel); the kit starts a fresh agent
 * per test, so its turns meet the fake model's echo.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeDocSection } from "./doc-section";
import type { ProbeReport } from "../lib/contracts/reports";
import {
  compareWithKit,
  comparisonMarkdown,
  parseKitReport,
  type AgentComparison,
} from "../lib/features/probe/tck-compare";
import { type AgentKind, agentProfile, isQwenMainLoop, prepareAgentHome } from "../test/agent-profiles";
import { startFakeGeminiApi, type Turn } from "../test/fake-gemini/server";
import { startFakeAnthropicApi } from "../test/fake-models/anthropic";
import type { ModelTurn } from "../test/fake-models/http";
import { startFakeOpenAiApi } from "../test/fake-models/openai";
import { makeGeminiHome } from "../test/gemini-home";

const root = path.resolve(import.meta.dirname, "..");
const DOC = path.join(root, "docs", "conformance.md");
const START = "<!-- tck-compare:start -->";
const END = "<!-- tck-compare:end -->";
const ALL = ["sdk-example", "gemini", "qwen", "claude"] as const;
type Agent = (typeof ALL)[number];
const COUNT = Array.from({ length: 200 }, (_, i) => `${i + 1}\n`);

const { values } = parseArgs({
  options: {
    agents: { type: "string" },
    write: { type: "boolean" },
    json: { type: "string" },
    kit: { type: "string" },
    from: { type: "string", multiple: true },
  },
});
const agents = (values.agents?.split(",") ?? [...ALL]) as Agent[];
for (const a of agents) if (!ALL.includes(a)) throw new Error(`unknown agent ${a}: one of ${ALL.join(", ")}`);
const kitDir = path.resolve(
  values.kit ?? process.env.ACP_TCK_DIR ?? path.join(root, "..", "shared", "tools", "acp-tck"),
);

/** Prints the table, or writes it into docs/conformance.md between its markers. */
async function output(comparisons: AgentComparison[]): Promise<void> {
  const python = execFileSync("python3", ["--version"], { encoding: "utf8" }).trim();
  const section = [
    START,
    `Produced on ${new Date().toISOString().slice(0, 10)} by \`npx tsx scripts/tck-compare.ts --write\` (Node ${process.version}, ` +
      `${python}, acp-tck v1 suite from \`../shared/tools/acp-tck\`; agents: ${comparisons.map((c) => c.agent).join(", ")}), ` +
      "offline against the fake model APIs.",
    "",
    comparisonMarkdown(comparisons).trimEnd(),
    END,
  ].join("\n");

  if (values.write) {
    await writeDocSection(DOC, START, END, section);
    process.stdout.write(`wrote the table into ${path.relative(root, DOC)}\n`);
  } else {
    process.stdout.write(`${section}\n`);
  }
}

/** Reports kept by earlier runs (`--json`): `{ agent: { kit, probe } }`. */
function fromFiles(files: string[]): AgentComparison[] {
  return files.flatMap((file) =>
    Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, { kit: unknown; probe: ProbeReport }>).map(
      ([agent, { kit, probe }]) =>
        compareWithKit(`${agent} ${probe.agent?.version ?? ""}`.trim(), parseKitReport(kit), probe),
    ),
  );
}

if (values.from?.length) {
  await output(fromFiles(values.from));
  process.exit(0);
}

execFileSync(process.execPath, [path.join(root, "scripts/ensure-agents.mjs")], { stdio: "inherit" });

const gemini = await startFakeGeminiApi();
const openai = await startFakeOpenAiApi(isQwenMainLoop);
const anthropic = await startFakeAnthropicApi();
const geminiHome = makeGeminiHome(gemini.url);
const base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-tck-compare-")));
const agentHome = path.join(base, "home");
const workspaces = path.join(base, "tmp");
mkdirSync(agentHome);
mkdirSync(workspaces);

/** The command line and environment each agent runs with, for the probe's profile and for the kit alike. */
function commandOf(agent: Agent): { command: string; args: string[]; env: Record<string, string> } {
  if (agent === "gemini")
    return { command: path.join(root, "node_modules", ".bin", "gemini"), args: ["--acp"], env: geminiHome.env };
  const kind: AgentKind = agent;
  prepareAgentHome(kind, agentHome);
  const apiUrl = kind === "qwen" ? openai.url : kind === "claude" ? anthropic.url : undefined;
  const p = agentProfile(kind, apiUrl, agentHome);
  return { command: p.command, args: p.args ?? [], env: p.env ?? {} };
}
const commands = Object.fromEntries(agents.map((a) => [a, commandOf(a)])) as Record<
  Agent,
  ReturnType<typeof commandOf>
>;
writeFileSync(
  path.join(base, "config.json"),
  JSON.stringify({
    profiles: Object.fromEntries(
      agents.map((a) => [`tck-${a}`, { ...commands[a], description: `${a} (test/agents)` }]),
    ),
  }),
);

/** The probe's model turns, in the order it prompts (agents-matrix.ts). */
function scriptFor(agent: Agent, workspace: string): void {
  const file = path.join(workspace, "probe.txt");
  if (agent === "gemini") {
    const turns: Turn[] = [
      { parts: [{ text: "OK" }] },
      { parts: [{ functionCall: { name: "write_file", args: { file_path: file, content: "OK\n" } } }] },
      { parts: [{ text: "Done." }] },
      { parts: COUNT.map((text) => ({ text })), delayMs: 100 },
    ];
    gemini.script(...turns);
    return;
  }
  const api = agent === "qwen" ? openai : agent === "claude" ? anthropic : undefined;
  const turns: ModelTurn[] = [
    { text: ["OK"] },
    { tools: [{ name: agent === "qwen" ? "write_file" : "Write", input: { file_path: file, content: "OK\n" } }] },
    { text: ["Done."] },
    { text: COUNT, delayMs: 100 },
  ];
  api?.script(...turns);
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    let out = "";
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, out }));
  });
}

/** The probe on every agent, one CLI run (exit 1 is a NOT CONFORMANT verdict, not an error). */
async function probeAll(): Promise<ProbeReport[]> {
  const seen = new Set<string>();
  const watcher = watch(workspaces, (_event, name) => {
    if (!name?.startsWith("acp-probe-") || seen.has(name)) return;
    const agent = agents[seen.size];
    seen.add(name);
    if (agent) scriptFor(agent, realpathSync(path.join(workspaces, name)));
  });
  try {
    const { code, out } = await run(
      process.execPath,
      [
        path.join(root, "bin/acp-playground.mjs"),
        "probe",
        ...agents.flatMap((a) => ["--profile", `tck-${a}`]),
        "--json",
      ],
      {
        ...process.env,
        ...geminiHome.env,
        TMPDIR: workspaces,
        ACP_PLAYGROUND_CONFIG: path.join(base, "config.json"),
        ACP_PLAYGROUND_DATA: path.join(base, "data"),
      },
      base,
    );
    if (code !== 0 && code !== 1) throw new Error(`acp-playground probe exited with ${code}`);
    // One profile: the report itself; several: { reports }.
    const parsed = JSON.parse(out) as { reports?: ProbeReport[] } & ProbeReport;
    return parsed.reports ?? [parsed];
  } finally {
    watcher.close();
  }
}

/** The kit's v1 suite on one agent; its JSON report (the exit code is its verdict). */
async function kit(agent: Agent): Promise<unknown> {
  const { command, args, env } = commands[agent];
  const report = path.join(base, `kit-${agent}.json`);
  const cwd = path.join(base, `kit-cwd-${agent}`);
  mkdirSync(cwd);
  const slow = agent === "sdk-example" ? [] : ["--timeout", "60", "--startup-timeout", "90", "--test-timeout", "300"];
  const { code } = await run(
    "python3",
    [
      "-m",
      "tck",
      "--report-json",
      report,
      "--agent-cwd",
      cwd,
      ...slow,
      ...Object.entries(env).flatMap(([k, v]) => ["--agent-env", `${k}=${v}`]),
      "--",
      command,
      ...args,
    ],
    { ...process.env, PYTHONPATH: path.join(kitDir, "src"), PYTHONDONTWRITEBYTECODE: "1", TMPDIR: workspaces },
    kitDir,
  );
  if (code !== 0 && code !== 1) throw new Error(`acp-tck exited with ${code} on ${agent}`);
  return JSON.parse(readFileSync(report, "utf8"));
}

let comparisons: AgentComparison[];
const kept: Record<string, { kit: unknown; probe: ProbeReport }> = {};
try {
  const probes = await probeAll();
  comparisons = [];
  for (const [i, agent] of agents.entries()) {
    process.stderr.write(`tck-compare: the kit on ${agent}…\n`);
    const kitJson = await kit(agent);
    const probe = probes[i]!;
    kept[agent] = { kit: kitJson, probe };
    // Kept as each agent is done: a long run that fails later loses nothing.
    if (values.json) writeFileSync(values.json, `${JSON.stringify(kept, null, 2)}\n`);
    const name = `${agent} ${probe.agent?.version ?? ""}`.trim();
    comparisons.push(compareWithKit(name, parseKitReport(kitJson), probe));
  }
} finally {
  await Promise.all([gemini.close(), openai.close(), anthropic.close()]);
  geminiHome.cleanup();
  rmSync(base, { recursive: true, force: true });
}

await output(comparisons);
