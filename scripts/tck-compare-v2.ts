/**
 * The ACP test kit's v2 suite (acp-tck `--protocol-version 2`) beside the v2 probe
 * (lib/features/probe-v2), requirement by requirement, on the v2 agents this machine has: the
 * SDK's dual-version example (pinned in test/agents) and the two v2 fixtures (test/fixtures/v2-*).
 * Only the kit's ids the probe checks are compared (STATE, BATCH, PATCH, ENUM, PERM, CANCEL,
 * RESUME); the table says what the kit found on the others. `--write` puts it into
 * docs/conformance.md between its v2 markers; `--json FILE` keeps both reports. Offline.
 *
 * Run: npx tsx scripts/tck-compare-v2.ts [--agents dual,reference,broken] [--write] [--json FILE]
 *      [--kit DIR] (default ../shared/tools/acp-tck, or ACP_TCK_DIR) [--timeout S] (both sides; default 10)
 *
 * The kit needs python3 with pytest and jsonschema (Debian: python3-pytest python3-jsonschema).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeDocSection } from "./doc-section";
import { runV2Probe, type V2ProbeResult } from "../lib/features/probe-v2/probe";
import { V2_REQUIREMENTS } from "../lib/features/probe-v2/requirements";
import {
  compareWithKit,
  comparisonMarkdown,
  parseKitReport,
  type AgentComparison,
} from "../lib/features/probe/tck-compare";
import { v2ProcessConnect } from "../server/agents/v2-process-line";

const root = path.resolve(import.meta.dirname, "..");
const DOC = path.join(root, "docs", "conformance.md");
const START = "<!-- tck-compare-v2:start -->";
const END = "<!-- tck-compare-v2:end -->";
const SDK = path.join(root, "test/agents/node_modules/@agentclientprotocol/sdk");
const AGENTS = {
  dual: [path.join(SDK, "dist/examples/dual-version-agent.js")],
  reference: [path.join(root, "test/fixtures/v2-reference-agent.mjs")],
  broken: [path.join(root, "test/fixtures/v2-broken-agent.mjs")],
} as const;
type Agent = keyof typeof AGENTS;

const { values } = parseArgs({
  options: {
    agents: { type: "string" },
    write: { type: "boolean" },
    json: { type: "string" },
    kit: { type: "string" },
    timeout: { type: "string" },
  },
});
const agents = (values.agents?.split(",") ?? Object.keys(AGENTS)) as Agent[];
for (const a of agents)
  if (!(a in AGENTS)) throw new Error(`unknown agent ${a}: one of ${Object.keys(AGENTS).join(", ")}`);
const kitDir = path.resolve(
  values.kit ?? process.env.ACP_TCK_DIR ?? path.join(root, "..", "shared", "tools", "acp-tck"),
);
const timeoutS = Number(values.timeout ?? 10);
const PROBED = new Set(V2_REQUIREMENTS.map((r) => r.id));

/** The kit's v2 suite on one agent: its report (exit 1 is a NOT CONFORMANT verdict, not an error). */
function runKit(agent: Agent, out: string, cwd: string): Promise<unknown> {
  const args = ["-m", "tck", "--protocol-version", "2", "--timeout", String(timeoutS), "--report-json", out];
  return new Promise((resolve, reject) => {
    const child = spawn("python3", [...args, "--", process.execPath, ...AGENTS[agent]], {
      cwd: kitDir,
      env: { ...process.env, PYTHONPATH: path.join(kitDir, "src"), PYTHONDONTWRITEBYTECODE: "1", TMPDIR: cwd },
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0 && code !== 1) return reject(new Error(`acp-tck on ${agent} exited ${code}`));
      resolve(JSON.parse(readFileSync(out, "utf8")) as unknown);
    });
  });
}

async function probe(agent: Agent, cwd: string): Promise<V2ProbeResult> {
  const connect = v2ProcessConnect({ command: process.execPath, args: AGENTS[agent], cwd });
  return runV2Probe(connect, { cwd, timeoutMs: timeoutS * 1000 });
}

const work = mkdtempSync(path.join(tmpdir(), "tck-compare-v2-"));
const comparisons: AgentComparison[] = [];
const kept: Record<string, unknown> = {};
const outside: string[] = [];
try {
  for (const agent of agents) {
    process.stderr.write(`${agent}: the probe…\n`);
    const mine = await probe(agent, work);
    process.stderr.write(`${agent}: the kit's v2 suite…\n`);
    const kitJson = await runKit(agent, path.join(work, `${agent}.json`), work);
    const kit = parseKitReport(kitJson);
    kept[agent] = { kit: kitJson, probe: mine };
    const name = `${agent} (${mine.agent?.name ?? "?"} ${mine.agent?.version ?? ""})`.replace(" )", ")");
    const others = kit.requirements.filter((r) => !PROBED.has(r.id) && r.status === "FAIL").map((r) => r.id);
    outside.push(`${name}: ${others.length ? others.join(", ") : "none"}`);
    comparisons.push(
      compareWithKit(
        name,
        { ...kit, requirements: kit.requirements.filter((r) => PROBED.has(r.id)) },
        {
          conformance: {
            verdict: mine.conformance.verdict,
            parts: [{ variant: "v2", decides: true, ...mine.conformance }],
          },
        },
      ),
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (values.json) writeFileSync(values.json, JSON.stringify(kept, null, 2));
const python = execFileSync("python3", ["--version"], { encoding: "utf8" }).trim();
const sdk = (JSON.parse(readFileSync(path.join(SDK, "package.json"), "utf8")) as { version: string }).version;
const section = [
  START,
  `Produced on ${new Date().toISOString().slice(0, 10)} by \`npx tsx scripts/tck-compare-v2.ts --write\` (Node ${process.version}, ` +
    `${python}, acp-tck v2 suite from \`../shared/tools/acp-tck\`, \`--timeout ${timeoutS}\` on both sides; ` +
    `@agentclientprotocol/sdk ${sdk} from test/agents). The rows compare the ${PROBED.size} ids the probe checks; ` +
    "the kit's verdict is its own, over all its ids: its failures outside the probe's are listed below the table.",
  "",
  comparisonMarkdown(comparisons).trimEnd(),
  "",
  "The kit's failures on ids the v2 probe does not check:",
  "",
  ...outside.map((o) => `- ${o}`),
  END,
].join("\n");

if (values.write) {
  await writeDocSection(DOC, START, END, section);
  process.stdout.write(`wrote the v2 table into ${path.relative(root, DOC)}\n`);
} else process.stdout.write(`${section}\n`);
