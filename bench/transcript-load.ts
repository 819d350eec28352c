/**
 * Transcript load: a generated 100,000-frame transcript (initialize,
 * session/new, prompt turns streaming many agent_message_chunk updates, tool
 * calls, permission requests, stderr) imported through POST /api/transcripts
 * into the real server (production build), then opened in the viewer
 * (/transcripts/[id]) in Chromium, on the Frames view and on the Session view
 * (the viewer's default), `--runs` times each. Prints, from navigation start,
 * the first paint of the transcript (the first frame row, or the first
 * conversation item, on screen), everything loaded, the longest main-thread
 * task meanwhile, and the inspector's search time; pass/fail against the targets.
 *
 * `--baseline DIR` (a built checkout of another commit) measures that one too,
 * run for run alternating with this one, and prints after/before ratios.
 *
 *   node --import tsx bench/transcript-load.ts [--frames 100000] [--runs 3] [--baseline DIR]
 */
import { chromium, type Browser } from "@playwright/test";
import type { Frame } from "../lib/protocol/frame";
import { FrameSequencer } from "../lib/protocol/frame-sequencer";
import { frameEvent, serialize, type TranscriptEvent, type TranscriptHeader } from "../lib/contracts/transcript";
import { CHROMIUM_LAUNCH } from "../e2e/chromium";
import { baselineDir, numberFlags, percentile, ratio, round, startBenchServer, type BenchServer } from "./harness";

const flags = numberFlags({ frames: 100_000, chunksPerTurn: 400, runs: 3 });
const TARGETS = { firstPaintMs: 1000, searchMs: 200 };
const VIEWS = ["frames", "session"] as const;
type View = (typeof VIEWS)[number];
const SEARCH_TERMS = ["tool_call_update", "request_permission", "Turn 7:", "plan", "README"];

/** A realistic recording, `frames` frames long exactly. */
function generate(total: number): string {
  let now = Date.parse("2026-11-22T02:35:12.331Z");
  const seq = new FrameSequencer({ wall: () => now, mono: () => now });
  const out: string[] = [];
  const header: TranscriptHeader = {
    type: "header",
    format: "acp-playground-transcript",
    version: "1.0",
    id: "bench-100k",
    createdAt: new Date(now).toISOString(),
    title: `Benchmark: ${total.toLocaleString("en")} frames`,
    playground: { version: "0.1.0" },
    agent: { profile: "bench", command: "/usr/bin/bench-agent", args: ["--acp"], cwd: "/tmp/bench-project" },
  };
  out.push(serialize(header));
  const event = (e: TranscriptEvent) => out.push(serialize(e));
  const line = (dir: Frame["dir"], message: object, gapMs: number) => {
    now += gapMs;
    out.push(serialize(frameEvent(seq.line(dir, JSON.stringify({ jsonrpc: "2.0", ...message })))));
  };
  const left = () => total - seq.seq;

  event({ type: "lifecycle", ts: now, event: "spawned", pid: 4242 });
  line(
    "to-agent",
    {
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: "acp-playground", version: "0.1.0" },
      },
    },
    5,
  );
  const agentInfo = { name: "bench-agent", title: "Bench Agent", version: "1.0.0" };
  line(
    "from-agent",
    {
      id: 1,
      result: {
        protocolVersion: 1,
        agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: true } },
        authMethods: [],
        agentInfo,
      },
    },
    900,
  );
  event({
    type: "agent-info",
    ts: now,
    protocolVersion: 1,
    agentInfo,
    agentCapabilities: { loadSession: true },
    authMethods: [],
  });
  event({ type: "stderr", ts: now, text: "bench-agent: ready\n" });
  const sessionId = "7d0c9a52-1f7e-4c1b-9a8e-5b2a1c0d3e4f";
  line("to-agent", { id: 2, method: "session/new", params: { cwd: "/tmp/bench-project", mcpServers: [] } }, 1200);
  line(
    "from-agent",
    {
      id: 2,
      result: {
        sessionId,
        modes: {
          currentModeId: "default",
          availableModes: [
            { id: "default", name: "Default" },
            { id: "plan", name: "Plan" },
          ],
        },
      },
    },
    60,
  );
  const update = (u: object, gap: number) =>
    line("from-agent", { method: "session/update", params: { sessionId, update: u } }, gap);

  for (let turn = 1, id = 3; left() > 0; turn++, id++) {
    line(
      "to-agent",
      {
        id,
        method: "session/prompt",
        params: {
          sessionId,
          prompt: [{ type: "text", text: `Turn ${turn}: explain the relay, then update the README.` }],
        },
      },
      4000,
    );
    // Budget: the prompt's response is the last frame of the turn.
    const budget = () => left() - 1;
    if (budget() > 0)
      update(
        {
          sessionUpdate: "plan",
          entries: [
            { content: "Read the code", priority: "high", status: "in_progress" },
            { content: "Update README.md", priority: "medium", status: "pending" },
          ],
        },
        150,
      );
    for (let i = 0; i < 12 && budget() > 0; i++)
      update(
        {
          sessionUpdate: "agent_thought_chunk",
          content: { type: "text", text: `Thinking about step ${i} of turn ${turn}. ` },
        },
        20,
      );
    for (let i = 0; i < flags.chunksPerTurn && budget() > 0; i++) {
      if (i % 100 === 50 && budget() > 2) {
        const toolCallId = `call_${turn}_${i}`;
        update(
          {
            sessionUpdate: "tool_call",
            toolCallId,
            title: `Read server/http/relay.ts (${i})`,
            kind: "read",
            status: "pending",
            locations: [{ path: "/tmp/bench-project/server/relay.ts" }],
          },
          30,
        );
        update(
          {
            sessionUpdate: "tool_call_update",
            toolCallId,
            status: "completed",
            content: [
              {
                type: "content",
                content: { type: "text", text: "export function createRelay(http, config) { /* 180 lines */ }" },
              },
            ],
          },
          80,
        );
      }
      if (i === 200 && budget() > 2) {
        line(
          "from-agent",
          {
            id: `perm-${turn}`,
            method: "session/request_permission",
            params: {
              sessionId,
              toolCall: { toolCallId: `edit_${turn}`, title: "Edit README.md", kind: "edit" },
              options: [
                { optionId: "allow", name: "Allow", kind: "allow_once" },
                { optionId: "reject", name: "Reject", kind: "reject_once" },
              ],
            },
          },
          40,
        );
        line("to-agent", { id: `perm-${turn}`, result: { outcome: { outcome: "selected", optionId: "allow" } } }, 700);
        event({ type: "stderr", ts: now, text: `bench-agent: turn ${turn} permission granted\n` });
      }
      update(
        {
          sessionUpdate: "agent_message_chunk",
          content: {
            type: "text",
            text: `The relay forwards frame ${i} of turn ${turn} between the browser and the agent, recording it as it goes. `,
          },
        },
        12,
      );
    }
    line("from-agent", { id, result: { stopReason: "end_turn" } }, 40);
  }
  event({ type: "lifecycle", ts: now + 500, event: "exited", code: 0, signal: null });
  return out.join("");
}

/** How many frames the inspector's search should find: a case-insensitive substring of the raw line. */
function matcher(text: string): (term: string) => number {
  const raws = text
    .split("\n")
    .filter((l) => l.startsWith('{"type":"frame"'))
    .map((l) => (JSON.parse(l) as { raw: string }).raw.toLowerCase());
  return (term) => raws.filter((r) => r.includes(term.toLowerCase())).length;
}

function median(xs: number[]): number {
  return percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
}

interface Side {
  name: "current" | "baseline";
  server: BenchServer;
  id: string;
}

async function importInto(name: Side["name"], dir: string | undefined, text: string): Promise<Side> {
  const server = await startBenchServer({}, dir);
  const res = await fetch(`${new URL(server.url).origin}/api/transcripts`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}` },
    body: text,
  });
  if (res.status !== 201) throw new Error(`import failed: ${res.status} ${await res.text()}`);
  const meta = (await res.json()) as { id: string; frames: number };
  if (meta.frames !== flags.frames) throw new Error(`imported ${meta.frames} frames, expected ${flags.frames}`);
  return { name, server, id: meta.id };
}

const totalText = `${flags.frames.toLocaleString("en")} frames`;

/** Times, from navigation start, of the transcript's first paint and of everything loaded, in one view. */
async function load(browser: Browser, side: Side, view: View) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const first = view === "frames" ? '[data-testid="frame-row"]' : '[data-testid="sv-item"]';
  const loaded =
    view === "frames"
      ? `document.querySelector('[data-testid="frame-count"]')?.textContent === ${JSON.stringify(totalText)}`
      : `document.querySelector('[data-testid="session-view"]')?.dataset.lastSeq === ${JSON.stringify(String(flags.frames))}`;
  // A string, not a function: tsx would wrap named functions in a helper the page does not have.
  await page.addInitScript(`
    localStorage.setItem("acp-playground.view", ${JSON.stringify(view)});
    const marks = (window.__marks = { longestTask: 0 });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) marks.longestTask = Math.max(marks.longestTask, e.duration);
    }).observe({ type: "longtask", buffered: true });
    // Painted: the frame after the element is in the DOM.
    const observer = new MutationObserver(() => {
      if (marks.first === undefined && document.querySelector(${JSON.stringify(first)})) {
        marks.first = -1;
        requestAnimationFrame((t) => (marks.first = t));
      }
      const complete = document.querySelector('[data-testid="transcript-viewer"][data-complete="true"]');
      if (marks.all === undefined && complete && ${loaded}) {
        marks.all = -1;
        requestAnimationFrame((t) => (marks.all = t));
      }
    });
    observer.observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ["data-complete", "data-last-seq"],
    });
  `);
  const origin = new URL(side.server.url).origin;
  await page.goto(`${origin}/transcripts/${side.id}?token=${side.server.token}`);
  await page.waitForFunction(
    () => {
      const m = (window as unknown as { __marks: Record<string, number> }).__marks;
      return m.first! > 0 && m.all! > 0;
    },
    undefined,
    { timeout: 180_000 },
  );
  const marks = await page.evaluate<{
    first: number;
    all: number;
    longestTask: number;
    fetchStart?: number;
    firstByte?: number;
  }>(`({
    ...window.__marks,
    // When the transcript's first byte arrived: what comes before it is the page starting up.
    fetchStart: performance.getEntriesByType("resource").find((e) => e.name.includes("/api/transcripts/"))?.startTime,
    firstByte: performance.getEntriesByType("resource").find((e) => e.name.includes("/api/transcripts/"))?.responseStart,
  })`);
  return { page, marks };
}

/** Search: set the term as a paste would, time until the filtered count shows it (Frames view). */
async function search(page: import("@playwright/test").Page, matches: (term: string) => number) {
  // Plain source text: tsx would wrap named functions in helpers the page does not have.
  const searchOnce = `(async ({ term, all, expected }) => {
    const input = document.querySelector('[data-testid="frame-search"]');
    const count = document.querySelector('[data-testid="frame-count"]');
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
    const type = (value) => { setValue.call(input, value); input.dispatchEvent(new Event("input", { bubbles: true })); };
    const until = (ok) => new Promise((done, fail) => {
      if (ok()) return done();
      const timer = setTimeout(() => fail(new Error("no count update for " + term)), 30000);
      const o = new MutationObserver(() => { if (ok()) { o.disconnect(); clearTimeout(timer); done(); } });
      o.observe(count, { childList: true, characterData: true, subtree: true });
    });
    // Start from the unfiltered list.
    if (count.textContent !== all) { type(""); await until(() => count.textContent === all); }
    const start = performance.now();
    // The exact count: before the debounced search runs, the toolbar shows the previous filter's.
    const shown = until(() => count.textContent === expected);
    type(term);
    await shown;
    await new Promise((r) => requestAnimationFrame(r));
    return performance.now() - start;
  })`;
  const runs: number[] = [];
  for (const term of SEARCH_TERMS) {
    const expected = `${matches(term).toLocaleString("en")} of ${totalText}`;
    const ms = await page.evaluate<number>(`${searchOnce}(${JSON.stringify({ term, all: totalText, expected })})`);
    runs.push(round(ms, 1));
  }
  return runs;
}

const text = generate(flags.frames);
const bytes = Buffer.byteLength(text);
const matches = matcher(text);
const baseline = baselineDir();

const sides: Side[] = [];
const browser = await chromium.launch({ ...CHROMIUM_LAUNCH, headless: true });
try {
  // Baseline first in every round: whatever the machine does drifts across both alike.
  if (baseline) sides.push(await importInto("baseline", baseline, text));
  sides.push(await importInto("current", undefined, text));
  type Run = {
    firstPaintMs: number;
    loadAllMs: number;
    fetchStartMs?: number;
    firstByteMs?: number;
    longestTaskMs: number;
  };
  const runs = new Map<string, Run[]>();
  const searches = new Map<string, number[]>();
  for (let i = 0; i < flags.runs; i++) {
    for (const view of VIEWS) {
      for (const side of sides) {
        const { page, marks } = await load(browser, side, view);
        const key = `${side.name}/${view}`;
        runs.set(key, [
          ...(runs.get(key) ?? []),
          {
            firstPaintMs: round(marks.first, 1),
            loadAllMs: round(marks.all, 1),
            fetchStartMs: marks.fetchStart === undefined ? undefined : round(marks.fetchStart, 1),
            firstByteMs: marks.firstByte === undefined ? undefined : round(marks.firstByte, 1),
            longestTaskMs: round(marks.longestTask, 1),
          },
        ]);
        // One search round per side, on the last run's Frames view.
        if (view === "frames" && i === flags.runs - 1) searches.set(side.name, await search(page, matches));
        await page.close();
      }
    }
  }
  const summary = (side: Side["name"], view: View) => {
    const rs = runs.get(`${side}/${view}`);
    if (!rs) return undefined;
    return {
      firstPaintMs: median(rs.map((r) => r.firstPaintMs)),
      loadAllMs: median(rs.map((r) => r.loadAllMs)),
      fetchStartMs: median(rs.map((r) => r.fetchStartMs ?? NaN)),
      firstByteMs: median(rs.map((r) => r.firstByteMs ?? NaN)),
      longestTaskMs: median(rs.map((r) => r.longestTaskMs)),
      runs: rs,
    };
  };
  const views = Object.fromEntries(
    VIEWS.map((view) => {
      const now = summary("current", view)!;
      const before = summary("baseline", view);
      return [
        view,
        {
          ...now,
          pass: { firstPaintMs: now.firstPaintMs <= TARGETS.firstPaintMs },
          ...(before
            ? {
                baseline: before,
                ratio: {
                  firstPaintMs: ratio(now.firstPaintMs, before.firstPaintMs),
                  loadAllMs: ratio(now.loadAllMs, before.loadAllMs),
                },
              }
            : {}),
        },
      ];
    }),
  );
  const searchMs = (side: Side["name"]) => {
    const s = searches.get(side);
    return s ? round(median(s), 1) : undefined;
  };
  const result = {
    benchmark: "transcript-load",
    frames: flags.frames,
    bytes,
    runs: flags.runs,
    baseline,
    views,
    searchMs: searchMs("current"),
    searchRunsMs: Object.fromEntries(SEARCH_TERMS.map((t, i) => [t, searches.get("current")![i]])),
    baselineSearchMs: searchMs("baseline"),
    targets: TARGETS,
    pass: {
      firstPaintMs: VIEWS.every((v) => views[v]!.pass.firstPaintMs),
      searchMs: (searchMs("current") ?? Infinity) < TARGETS.searchMs,
    },
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await browser.close();
  for (const side of sides) await side.server.close();
}
