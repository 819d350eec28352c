/**
 * Reading a recording faster, end to end in Chromium: chunk folding in the
 * Frames view (and search inside a fold), Insights and latency linking to
 * their frames, the diff of any two transcripts picked in the library (and of
 * two turns of one), and the empty viewer opening a file from file:// and
 * served by the relay.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { rows, url } from "./helpers";

const origin = () => process.env.E2E_ORIGIN!;
const token = () => new URL(url()).searchParams.get("token")!;
const demoFile = path.resolve(import.meta.dirname, "..", "demo", "gemini-demo.jsonl");

/** A transcript of the given messages, one frame each, 100 ms apart (responses paired by id). */
function transcript(title: string, messages: Array<["to-agent" | "from-agent", object | string]>): string {
  const open = new Map<string, { seq: number; method: string; ts: number }>();
  const lines: object[] = [
    {
      type: "header",
      format: "acp-playground-transcript",
      version: "1.0",
      id: "20270101-000000-00000000",
      createdAt: "2027-01-01T00:00:00.000Z",
      title,
      playground: { version: "0.1.0" },
      agent: { profile: "stub", command: "agent", args: [], cwd: "/w" },
    },
  ];
  messages.forEach(([dir, m], i) => {
    const seq = i + 1;
    const ts = 1_800_000_000_000 + seq * 100;
    if (typeof m === "string") {
      lines.push({ type: "frame", seq, ts, dir, raw: m, kind: "invalid", error: "not JSON" });
      return;
    }
    const msg = m as { id?: number | string; method?: string };
    const e: Record<string, unknown> = { type: "frame", seq, ts, dir, raw: JSON.stringify({ jsonrpc: "2.0", ...m }) };
    if (msg.method !== undefined) {
      e.kind = msg.id !== undefined ? "request" : "notification";
      e.method = msg.method;
      if (msg.id !== undefined) {
        e.id = msg.id;
        open.set(`${dir} ${String(msg.id)}`, { seq, method: msg.method, ts });
      }
    } else {
      e.kind = "response";
      e.id = msg.id;
      const other = dir === "to-agent" ? "from-agent" : "to-agent";
      const req = open.get(`${other} ${String(msg.id)}`);
      if (req) Object.assign(e, { method: req.method, requestSeq: req.seq, latencyMs: ts - req.ts });
    }
    lines.push(e);
  });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

const chunk = (text: string) => ({
  method: "session/update",
  params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } },
});
const prompt = (id: number, text: string) => ({
  id,
  method: "session/prompt",
  params: { sessionId: "s", prompt: [{ type: "text", text }] },
});

async function upload(text: string): Promise<string> {
  const res = await fetch(`${origin()}/api/transcripts`, {
    method: "POST",
    headers: { authorization: `Bearer ${token()}`, "content-type": "application/x-ndjson" },
    body: text,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const openTranscript = (page: Page, id: string) =>
  page.goto(`${origin()}/transcripts/${encodeURIComponent(id)}?token=${token()}`);

test("chunk folding: one row per message, expandable, a toggle shows every frame, search finds frames inside", async ({
  page,
}) => {
  await openTranscript(page, "demo-gemini");
  await expect(page.getByTestId("transcript-viewer")).toHaveAttribute("data-complete", "true");
  await page.getByTestId("view-frames").click();
  // Frames 8-11 and 17-18 are chunks of one message each: 19 frames in 13 rows and 2 folds.
  const folds = page.getByTestId("fold-row");
  await expect(folds).toHaveCount(2);
  await expect(rows(page)).toHaveCount(13);
  const first = page.locator('[data-testid="fold-row"][data-first-seq="8"]');
  await expect(first).toHaveAttribute("data-count", "4");
  await expect(first.getByTestId("fold-count")).toHaveText("×4");
  await expect(first.getByTestId("fold-duration")).toHaveText(/^\d+ ms$/);

  await test.step("a fold opens into its frames and folds again", async () => {
    await first.click();
    await expect(rows(page)).toHaveCount(17);
    for (const seq of ["8", "9", "10", "11"]) await expect(rows(page, { seq })).toBeVisible();
    await rows(page, { seq: "8" }).getByTestId("fold-collapse").click();
    await expect(rows(page)).toHaveCount(13);
  });

  await test.step("a search finds a frame inside a fold and shows it", async () => {
    const inside = JSON.parse(
      readFileSync(demoFile, "utf8")
        .split("\n")
        .map((l) => (l ? JSON.parse(l) : {}))
        .find((e) => e.seq === 10).raw,
    ).params.update.content.text as string;
    const word = inside
      .trim()
      .split(/\s+/)
      .find((w) => w.length > 5)!;
    await page.getByTestId("frame-search").fill(word);
    await expect(rows(page, { seq: "10" })).toBeVisible();
    await expect(folds).toHaveCount(0);
    await page.getByTestId("frame-search").fill("");
    await expect(folds).toHaveCount(2);
  });

  await test.step("the toggle shows every frame, and is remembered", async () => {
    await page.getByTestId("toggle-folding").uncheck();
    await expect(rows(page)).toHaveCount(19);
    await expect(folds).toHaveCount(0);
    await page.reload();
    await page.getByTestId("view-frames").click();
    await expect(rows(page)).toHaveCount(19);
    await page.getByTestId("toggle-folding").check();
    await expect(folds).toHaveCount(2);
  });
});

test("insights and latency link to their frames, also inside a fold", async ({ page }) => {
  const id = await upload(
    transcript("Insights e2e", [
      ["to-agent", { id: 1, method: "initialize", params: { protocolVersion: 1 } }],
      ["from-agent", "Loaded cached credentials."],
      ["from-agent", { id: 1, result: { protocolVersion: 1, agentCapabilities: {} } }],
      ["to-agent", { id: 2, method: "session/load", params: { sessionId: "s", cwd: "/w", mcpServers: [] } }],
      ["from-agent", { id: 2, error: { code: -32601, message: "Method not found" } }],
      ["to-agent", prompt(3, "hello")],
      ["from-agent", chunk("one ")],
      ["from-agent", chunk("two ")],
      ["from-agent", chunk("three")],
      ["from-agent", { id: 3, result: { stopReason: "end_turn", usage: { inputTokens: 10, outputTokens: 5 } } }],
      ["to-agent", prompt(4, "again")],
    ]),
  );
  await openTranscript(page, id);
  await expect(page.getByTestId("transcript-viewer")).toHaveAttribute("data-complete", "true");
  await page.getByTestId("view-insights").click();
  const insight = (kind: string) => page.locator(`[data-testid="insight"][data-kind="${kind}"]`);
  await expect(insight("errors")).toContainText("error -32601 ×1");
  await expect(insight("errors")).toContainText("Method not found");
  await expect(insight("not-json-rpc")).toContainText("Loaded cached credentials.");
  await expect(insight("unanswered")).toContainText("#11 session/prompt");
  await expect(insight("tokens")).toContainText("turn 1: 15 tokens");
  const latency = page.locator('[data-testid="latency-row"][data-method="session/prompt"]');
  // Cells: method, direction, count, p50, p95, p99, max, errors, unanswered.
  await expect(latency.locator("td").nth(2)).toHaveText("2");
  await expect(latency.locator("td").nth(6)).toHaveText("400 ms");
  await expect(latency.locator("td").nth(8)).toHaveText("1");
  await expect(page.locator('[data-testid="latency-row"][data-method="session/load"]').locator("td").nth(7)).toHaveText(
    "1",
  );

  await test.step("an insight selects its frame and scrolls to it", async () => {
    await insight("errors").getByTestId("insight-link").click();
    await expect(page.getByTestId("view-frames")).toHaveAttribute("aria-selected", "true");
    await expect(rows(page, { seq: "5" })).toHaveAttribute("data-selected", "true");
    await expect(page.getByTestId("frame-detail")).toHaveAttribute("data-seq", "5");
  });

  await test.step("the slowest request in the latency table; the tokens of a turn", async () => {
    await page.getByTestId("view-insights").click();
    await latency.getByTestId("latency-slowest").click();
    await expect(page.getByTestId("frame-detail")).toHaveAttribute("data-seq", "6");
    await expect(page.locator('[data-testid="fold-row"][data-first-seq="7"]')).toHaveCount(1);
    await page.getByTestId("view-insights").click();
    await insight("tokens").getByTestId("insight-link").click();
    await expect(page.getByTestId("frame-detail")).toHaveAttribute("data-seq", "6");
  });

  await test.step("a frame inside a fold is shown by opening the fold", async () => {
    await page.getByTestId("view-session").click();
    await page.locator('[data-testid="sv-item"][data-type="agent_message"]').getByTestId("show-frames").click();
    await expect(rows(page, { seq: "7" })).toBeInViewport();
    await expect(rows(page, { seq: "8" })).toBeVisible();
    await expect(page.locator('[data-testid="fold-row"][data-first-seq="7"]')).toHaveCount(0);
  });
});

test("diff any two transcripts picked in the library, and two turns of one", async ({ page }) => {
  const a = await upload(
    transcript("Diff A e2e", [
      ["to-agent", prompt(1, "hi")],
      ["from-agent", chunk("Hel")],
      ["from-agent", chunk("lo")],
      ["from-agent", { id: 1, result: { stopReason: "end_turn" } }],
      ["to-agent", prompt(2, "bye")],
      ["from-agent", chunk("Bye")],
      ["from-agent", { id: 2, result: { stopReason: "end_turn" } }],
    ]),
  );
  const b = await upload(
    transcript("Diff B e2e", [
      ["to-agent", prompt(7, "hi")],
      ["from-agent", chunk("Hello")],
      [
        "from-agent",
        {
          method: "session/update",
          params: { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "t", title: "read" } },
        },
      ],
      ["from-agent", { id: 7, result: { stopReason: "end_turn" } }],
      ["to-agent", prompt(8, "bye")],
      ["from-agent", chunk("Goodbye")],
      ["from-agent", { id: 8, result: { stopReason: "end_turn" } }],
    ]),
  );
  await page.goto(`${origin()}/transcripts?token=${token()}`);
  const row = (id: string) => page.locator(`[data-testid="transcript-row"][data-id="${id}"]`);
  await row(a).getByTestId("diff-pick").click();
  await expect(page.getByTestId("diff-picks")).toContainText("pick another");
  await row(b).getByTestId("diff-pick").click();
  await page.getByTestId("diff-open").click();
  await expect(page).toHaveURL(/\/transcripts\/diff\?a=/);
  // Chunking and ids differ but are no difference; the tool call and the last answer are.
  await expect(page.getByTestId("diff-summary")).toContainText("5 same · 1 changed · 0 only in A · 1 only in B");
  const inserted = page.locator('[data-testid="aligned-step"][data-op="inserted"]');
  await expect(inserted).toContainText("session/update tool_call");
  const changed = page.locator('[data-testid="aligned-step"][data-op="changed"]');
  await expect(changed).toContainText("agent_message_chunk");
  await expect(page.locator('[data-testid="step-field"][data-path="params.update.content.text"]')).toContainText(
    '"Goodbye"',
  );
  await expect(page.getByTestId("diff-side-A")).toContainText("Diff A e2e");
  await expect(page.getByTestId("diff-side-A")).toContainText("7 frames · 2 turns");

  await test.step("two turns of one transcript", async () => {
    await page.goto(`${origin()}/transcripts?token=${token()}`);
    await row(a).getByTestId("diff-pick").click();
    await page.getByTestId("diff-turns").click();
    await expect(page.getByTestId("diff-turn-A")).toHaveValue("0");
    await expect(page.getByTestId("diff-turn-B")).toHaveValue("1");
    await expect(page.getByTestId("diff-summary")).toContainText("1 same · 2 changed");
    await expect(page.locator('[data-testid="step-field"][data-path="params.prompt[0].text"]')).toContainText('"bye"');
  });

  await test.step("a one-turn transcript: no diff of its turns, and its side counts in words", async () => {
    const one = await upload(
      transcript("Diff one e2e", [
        ["to-agent", prompt(1, "hi")],
        ["from-agent", { id: 1, result: { stopReason: "end_turn" } }],
      ]),
    );
    await page.goto(`${origin()}/transcripts?token=${token()}`);
    await row(one).getByTestId("diff-pick").click();
    await expect(page.getByTestId("diff-picks")).toContainText("pick another");
    await expect(page.getByTestId("diff-turns")).toHaveCount(0);
    await row(b).getByTestId("diff-pick").click();
    await page.getByTestId("diff-open").click();
    await expect(page.getByTestId("diff-side-A")).toContainText("2 frames · 1 turn");
    await expect(page.getByTestId("diff-side-A")).not.toContainText("1 turns");
  });
});

test("the empty viewer opens a transcript file from file://, offline, and served by the relay", async ({
  browser,
  page,
}) => {
  const file = test.info().outputPath("viewer.html");
  execFileSync(process.execPath, ["--import", "tsx", "server/cli/cli.ts", "export", "--viewer", "-o", file], {
    cwd: path.resolve(import.meta.dirname, ".."),
  });
  const context = await browser.newContext({ offline: true });
  const own = pathToFileURL(file).href;
  const requests: string[] = [];
  await context.route("**/*", (route) =>
    route.request().url() === own ? route.continue() : route.abort("internetdisconnected"),
  );
  const view = await context.newPage();
  view.on("request", (r) => r.url() !== own && !r.url().startsWith("blob:") && requests.push(r.url()));
  await view.goto(own);
  await expect(view.getByTestId("viewer-drop-zone")).toBeVisible();
  await view.getByTestId("viewer-file-input").setInputFiles(demoFile);
  await expect(view.getByTestId("transcript-viewer")).toHaveAttribute("data-complete", "true");
  await expect(view.getByTestId("viewer-file-name")).toHaveText("gemini-demo.jsonl");
  await expect(view.getByTestId("session-view")).toContainText("I created hello.py");
  await view.getByTestId("view-frames").click();
  await expect(view.getByTestId("fold-row")).toHaveCount(2);

  await test.step("a file that is not a transcript says so, and another can be chosen", async () => {
    await view
      .getByTestId("viewer-file-input")
      .first()
      .setInputFiles({ name: "notes.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from("hello\n") });
    await expect(view.getByTestId("viewer-error")).toContainText("notes.jsonl is not a transcript");
    await view.getByTestId("viewer-file-input").first().setInputFiles(demoFile);
    await expect(view.getByTestId("transcript-viewer")).toHaveAttribute("data-complete", "true");
  });
  expect(requests).toEqual([]);
  await context.close();

  await test.step("served by the relay, and downloadable from the Transcripts page", async () => {
    await page.goto(`${origin()}/api/viewer`);
    await page.getByTestId("viewer-file-input").setInputFiles(demoFile);
    await expect(page.getByTestId("session-view")).toContainText("I created hello.py");
    await page.goto(`${origin()}/transcripts?token=${token()}`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-viewer").click()]);
    expect(download.suggestedFilename()).toBe("acp-viewer.html");
    expect(readFileSync(await download.path(), "utf8")).toContain('"viewer":true');
  });
});
