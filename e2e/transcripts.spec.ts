/**
 * Transcripts end to end: a session recorded in the playground with a real
 * Gemini CLI (behind the fake Gemini API), then listed, renamed, played back
 * with the live view's components, downloaded, imported, shared, re-run and
 * deleted. Everything waits on locators, never on sleeps.
 */
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { sendTemplate, startAgent, url } from "./helpers";
import { framesView, sharedPage } from "./shared-page";

// These tests read the Frames view (the page opens on the Session view otherwise).

const origin = () => process.env.E2E_ORIGIN!;
const token = () => new URL(url()).searchParams.get("token")!;

interface Meta {
  id: string;
  title: string;
  turns: number;
  frames: number;
  profile: string;
  recording: boolean;
  redactions: number;
}

async function listIds(): Promise<Meta[]> {
  const res = await fetch(`${origin()}/api/transcripts`, { headers: { authorization: `Bearer ${token()}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { transcripts: Meta[] }).transcripts;
}

const row = (page: Page, id: string) => page.locator(`[data-testid="transcript-row"][data-id="${id}"]`);
const frameRows = (page: Page) => page.getByTestId("frame-row");

/** Starts an agent, and initialize, session/new, one prompt through the composer templates. */
async function recordSession(page: Page, prompt: string): Promise<number> {
  await page.goto(url());
  await startAgent(page);
  for (const [template, method] of [
    ["template-initialize", "initialize"],
    ["template-session-new", "session/new"],
  ] as const) {
    await sendTemplate(page, template);
    await expect(page.locator(`[data-testid="frame-row"][data-kind="response"][data-method="${method}"]`)).toHaveCount(
      1,
    );
  }
  await page.getByTestId("template-session-prompt").click();
  const draft = JSON.parse(await page.getByTestId("composer").inputValue());
  draft.params.prompt[0].text = prompt;
  await page.getByTestId("composer").fill(JSON.stringify(draft));
  await page.getByTestId("send-frame").click();
  await expect(
    page.locator('[data-testid="frame-row"][data-kind="response"][data-method="session/prompt"]'),
  ).toHaveCount(1);
  await page.getByTestId("stop-agent").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "exited");
  const count = /^(\d+) frames?$/.exec((await page.getByTestId("frame-count").textContent()) ?? "");
  expect(count).not.toBeNull();
  return Number(count![1]);
}

test.describe.serial("record, list, rename, play back, download, import, share, re-run, delete", () => {
  let page: Page;
  let before = new Set<string>();
  let frames = 0;
  // The recording is the new gemini transcript with one turn (the warm pool records its own agents too).
  let id = "";
  let downloaded = "";
  let imported: Meta;
  let redacted = 0;
  sharedPage(
    async (p) => {
      page = p;
      before = new Set((await listIds()).map((t) => t.id));
      frames = await recordSession(page, "hello transcripts e2e");
      await expect
        .poll(async () => {
          const fresh = (await listIds()).filter((t) => !before.has(t.id) && t.turns === 1 && !t.recording);
          id = fresh[0]?.id ?? "";
          return fresh.length;
        })
        .toBe(1);
    },
    { framesView: true, failOnPageErrors: true, everyFrame: true },
  );

  test("listed with its turns and frames, next to the shipped demo", async () => {
    await page.getByTestId("nav-transcripts").click();
    await expect(page).toHaveURL(/\/transcripts$/);
    await expect(row(page, id).getByTestId("transcript-turns")).toHaveText("1");
    await expect(row(page, id).getByTestId("transcript-frames")).toHaveText(String(frames));
    await expect(row(page, id)).toContainText("gemini-cli");
    await expect(row(page, "demo-gemini")).toContainText("Demo: Gemini CLI explains ACP and writes a file");
  });

  test("rename inline", async () => {
    await row(page, id).getByTestId("transcript-title").click();
    await row(page, id).getByTestId("title-input").fill("E2E recorded session");
    await row(page, id).getByTestId("title-input").press("Enter");
    await expect(row(page, id).getByTestId("transcript-title")).toHaveText(/^E2E recorded session/);
    await page.reload();
    await expect(row(page, id).getByTestId("transcript-title")).toHaveText(/^E2E recorded session/);
  });

  test("replay as mock agent preselects the replay profile", async () => {
    await row(page, id).getByTestId("replay-transcript").click();
    await expect(page).toHaveURL(new RegExp(`/\\?profile=replay%3A${id}$`));
    await expect(page.getByTestId("profile-select")).toHaveValue(`replay:${id}`);
    await page.getByTestId("nav-transcripts").click();
  });

  test("the viewer plays the recording back with the same frames", async () => {
    await row(page, id).getByTestId("open-transcript").click();
    await expect(page).toHaveURL(new RegExp(`/transcripts/${id}$`));
    await expect(page.getByTestId("viewer-title")).toHaveText("E2E recorded session");
    await expect(page.getByTestId("viewer-profile")).toHaveText("gemini");
    await expect(page.getByTestId("viewer-agent")).toContainText("0.61.0");
    const count = page.getByTestId("frame-count");
    await expect(count).toHaveText(`${frames} frames`);
    await expect(page.getByTestId("transcript-viewer")).toHaveAttribute("data-complete", "true");

    // Back to the start, then instant: everything at once.
    await page.getByTestId("playback-scrubber").fill("0");
    await expect(count).toHaveText("0 frames");
    await expect(frameRows(page)).toHaveCount(0);
    await page.getByTestId("speed-instant").click();
    await expect(count).toHaveText(`${frames} frames`);
    await expect(frameRows(page)).toHaveCount(frames);
    await expect(frameRows(page).last()).toHaveAttribute("data-seq", String(frames));

    // Scrub and step.
    await page.getByTestId("playback-scrubber").fill("2");
    await expect(count).toHaveText("2 frames");
    await expect(page.getByTestId("playback-position")).toContainText(`2 / ${frames}`);
    await page.getByTestId("playback-step").click();
    await expect(count).toHaveText("3 frames");
    await expect(frameRows(page).last()).toHaveAttribute("data-seq", "3");
    await page.getByTestId("playback-back").click();
    await page.getByTestId("playback-back").click();
    await expect(count).toHaveText("1 frame");
    await expect(frameRows(page)).toHaveCount(1);
    await expect(frameRows(page).first()).toHaveAttribute("data-method", "initialize");

    // 10x from the start runs to the end and stops.
    await page.getByTestId("speed-10x").click();
    await page.getByTestId("playback-scrubber").fill("0");
    await page.getByTestId("playback-play").click();
    await expect(page.getByTestId("playback")).toHaveAttribute("data-playing", "true");
    await expect(count).toHaveText(`${frames} frames`, { timeout: 60_000 });
    await expect(page.getByTestId("playback")).toHaveAttribute("data-playing", "false");
  });

  test("download", async () => {
    const download = page.waitForEvent("download");
    await page.getByTestId("viewer-download").click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${id}.jsonl`);
    downloaded = readFileSync(await file.path(), "utf8");
    const header = JSON.parse(downloaded.slice(0, downloaded.indexOf("\n")));
    expect(header).toMatchObject({ type: "header", id, title: "E2E recorded session" });
  });

  test("re-run against gemini behaves as recorded", async () => {
    await page.getByTestId("rerun-open").click();
    await expect(page.getByTestId("rerun-profile")).toHaveValue("gemini");
    // A bad ignore path is refused inline; a good one is sent with the re-run.
    await page.getByTestId("rerun-ignore").fill("result..x");
    await expect(page.getByTestId("rerun-ignore-error")).toHaveText("not a dot path: result..x");
    await expect(page.getByTestId("rerun-start")).toBeDisabled();
    await page.getByTestId("rerun-ignore").fill("result._meta.quota");
    await expect(page.getByTestId("rerun-ignore-error")).toHaveCount(0);
    await page.getByTestId("rerun-start").click();
    await expect(page.getByTestId("rerun-equal")).toHaveText("No difference: the agent behaved as recorded.", {
      timeout: 90_000,
    });
    const steps = page.getByTestId("rerun-step");
    await expect(steps).toHaveCount(3);
    await expect(steps.nth(2)).toContainText("session/prompt");
    await expect(steps.nth(2)).toHaveAttribute("data-outcome", "answered");
  });

  test("import: an invalid file is refused with its line, a valid one is listed", async () => {
    await page.getByTestId("nav-transcripts").click();
    const rows = page.getByTestId("transcript-row");
    await expect(row(page, id)).toBeVisible();
    const listed = await rows.count();
    // The library's rows leave out starts that never had a turn; the API lists every transcript.
    const stored = (await listIds()).length;
    // Dropped on the zone, like a file dragged from the desktop.
    const bad = `${downloaded.slice(0, downloaded.indexOf("\n") + 1)}{"type":"frame","seq":1\n`;
    const dropped = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], "bad.jsonl", { type: "application/x-ndjson" }));
      return dt;
    }, bad);
    await page.getByTestId("upload-zone").dispatchEvent("drop", { dataTransfer: dropped });
    await expect(page.getByTestId("upload-error")).toContainText("bad.jsonl was not imported: line 2: not JSON");
    await expect(page.getByTestId("upload-error")).toContainText("Nothing was stored.");
    await expect(rows).toHaveCount(listed);
    expect((await listIds()).length).toBe(stored);

    // The same recording, as if the relay had redacted two secrets in its first frame.
    const good = downloaded.replace(/^(\{"type":"frame".*)\}$/m, '$1,"redacted":2}');
    expect(good).not.toBe(downloaded);
    await page
      .getByTestId("upload-input")
      .setInputFiles({ name: "good.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(good) });
    await expect(page.getByTestId("upload-status")).toContainText(
      `Imported good.jsonl as “E2E recorded session” (${frames} frames)`,
    );
    await expect(rows).toHaveCount(listed + 1);

    imported = (await listIds()).find((t) => !before.has(t.id) && t.id !== id && t.title === "E2E recorded session")!;
    expect(imported).toBeDefined();
    // Whatever the recording had redacted itself, plus the two.
    redacted = (await listIds()).find((t) => t.id === id)!.redactions + 2;
    expect(imported.redactions).toBe(redacted);
    await expect(row(page, imported.id).getByTestId("redaction-badge")).toHaveText(`${redacted} secrets redacted`);
  });

  test("share: the link opens a read-only viewer without the access token", async ({ browser }) => {
    await row(page, imported.id).getByTestId("share-transcript").click();
    const shareBox = row(page, imported.id).locator("xpath=following-sibling::tr[1]");
    // No link until the user makes one.
    await shareBox.getByTestId("create-share").click();
    const shareUrl = await shareBox.getByTestId("share-url").inputValue();
    expect(shareUrl).toMatch(new RegExp(`^${origin()}/share/${imported.id}\\?token=[\\w-]+$`));

    const fresh = await browser.newContext();
    await fresh.addInitScript(() => localStorage.setItem("acp-playground.view", "frames"));
    const shared = await fresh.newPage();
    await shared.goto(shareUrl);
    await expect(shared.getByTestId("viewer-title")).toHaveText("E2E recorded session");
    await expect(shared.getByTestId("frame-count")).toHaveText(`${frames} frames`);
    await expect(shared.getByTestId("redaction-notice")).toHaveText(
      `${redacted} secrets were redacted before this transcript was written.`,
    );
    await expect(shared.getByTestId("nav-links")).toHaveCount(0);
    await expect(shared.getByTestId("rerun-open")).toHaveCount(0);
    expect(await shared.evaluate(() => sessionStorage.getItem("acp-playground.token"))).toBeNull();

    await shared.goto(shareUrl.replace(/token=.*/, "token=not-the-share-token"));
    await expect(shared.getByTestId("viewer-error")).toContainText("This share link is not valid");

    // Revoked: the same link stops working at once.
    await shareBox.getByTestId("revoke-share").click();
    await expect(shareBox.getByTestId("create-share")).toBeVisible();
    await shared.goto(shareUrl);
    await expect(shared.getByTestId("viewer-error")).toContainText("This share link is not valid");
    await fresh.close();
  });

  test("delete", async () => {
    const rows = page.getByTestId("transcript-row");
    const listed = await rows.count();
    // Delete is one of the row's rare actions, under More; it asks in place.
    await row(page, imported.id).getByTestId("row-more").click();
    await row(page, imported.id).getByTestId("delete-transcript").click();
    await row(page, imported.id).getByTestId("confirm-delete").click();
    await expect(row(page, imported.id)).toHaveCount(0);
    await expect(rows).toHaveCount(listed - 1);
    expect((await listIds()).some((t) => t.id === imported.id)).toBe(false);
  });
});

test("the viewer and the list need the access token; an unknown transcript says so", async ({ page }) => {
  await framesView(page);
  await page.goto(`${origin()}/transcripts`);
  await expect(page.getByTestId("token-message")).toContainText("No access token");
  await page.goto(`${origin()}/transcripts/no-such-transcript?token=${token()}`);
  await expect(page).not.toHaveURL(/token=/);
  await expect(page.getByTestId("viewer-error")).toContainText("No such transcript");
  await page.getByTestId("nav-transcripts").click();
  await expect(page.locator('[data-testid="transcript-row"][data-id="demo-gemini"]')).toBeVisible();
});

/** A small hand-made transcript: initialize, session/new in `cwd`, one prompt answered with `reply`. */
function tinyTranscript(title: string, reply: string, cwd = "/home/someone/secret-project"): string {
  let seq = 0;
  let ts = Date.parse("2026-01-02T03:04:05Z");
  const frame = (dir: "to-agent" | "from-agent", message: Record<string, unknown>, kind: string, method?: string) =>
    JSON.stringify({
      type: "frame",
      seq: ++seq,
      ts: (ts += 10),
      dir,
      raw: JSON.stringify({ jsonrpc: "2.0", ...message }),
      kind,
      ...(method ? { method } : {}),
      ...("id" in message ? { id: message.id } : {}),
    });
  const sessionId = "tiny-session";
  return `${[
    JSON.stringify({
      type: "header",
      format: "acp-playground-transcript",
      version: "1.0",
      id: `tiny-${reply}`,
      createdAt: new Date(ts).toISOString(),
      playground: { version: "0.1.0" },
      agent: { profile: "handmade", command: "/opt/secret-tools/agent", args: ["--key-file", `${cwd}/k`], cwd },
      title,
    }),
    frame("to-agent", { id: 1, method: "initialize", params: { protocolVersion: 1 } }, "request", "initialize"),
    frame(
      "from-agent",
      {
        id: 1,
        result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [], agentInfo: { name: "tiny-agent" } },
      },
      "response",
      "initialize",
    ),
    frame("to-agent", { id: 2, method: "session/new", params: { cwd, mcpServers: [] } }, "request", "session/new"),
    frame("from-agent", { id: 2, result: { sessionId } }, "response", "session/new"),
    frame(
      "to-agent",
      { id: 3, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "hi" }] } },
      "request",
      "session/prompt",
    ),
    frame(
      "from-agent",
      {
        method: "session/update",
        params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: reply } } },
      },
      "notification",
      "session/update",
    ),
    frame("from-agent", { id: 3, result: { stopReason: "end_turn" } }, "response", "session/prompt"),
  ].join("\n")}\n`;
}

async function uploadInPage(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByTestId("upload-input")
    .setInputFiles({ name, mimeType: "application/x-ndjson", buffer: Buffer.from(text) });
}

test.describe.serial("the library: kinds, filter and search, duplicates, titled replays, share privacy, diff", () => {
  let page: Page;
  const stamp = Date.now().toString(36);
  const hello = tinyTranscript(`Tiny hello ${stamp}`, "hello");
  const bye = tinyTranscript(`Tiny goodbye ${stamp}`, "goodbye");
  let helloIds: string[] = [];
  let byeId = "";
  sharedPage(
    async (p) => {
      page = p;
      await page.goto(url());
      await page.getByTestId("nav-transcripts").click();
    },
    { framesView: true, everyFrame: true },
  );
  test.afterAll(async () => {
    for (const id of [...helloIds, byeId].filter(Boolean)) {
      const res = await fetch(`${origin()}/api/transcripts/${id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token()}` },
      });
      expect(res.status).toBe(204);
    }
  });

  test("importing the same file twice warns, naming the first copy", async () => {
    await uploadInPage(page, "hello.jsonl", hello);
    await expect(page.getByTestId("upload-status")).toContainText(`Tiny hello ${stamp}`);
    await uploadInPage(page, "hello.jsonl", hello);
    await expect(page.getByTestId("upload-duplicate")).toContainText("same transcript as");
    await expect(page.getByTestId("upload-duplicate")).toContainText(`Tiny hello ${stamp}`);
    await uploadInPage(page, "bye.jsonl", bye);
    await expect(page.getByTestId("upload-status")).toContainText(`Tiny goodbye ${stamp}`);
    const all = await listIds();
    helloIds = all.filter((t) => t.title === `Tiny hello ${stamp}`).map((t) => t.id);
    byeId = all.find((t) => t.title === `Tiny goodbye ${stamp}`)!.id;
    expect(helloIds).toHaveLength(2);
  });

  test("every row is tagged with its kind; the list filters by kind and searches", async () => {
    await expect(row(page, "demo-gemini").getByTestId("kind-badge")).toHaveText("demo");
    await expect(row(page, byeId).getByTestId("kind-badge")).toHaveText("upload");
    await page.locator('[data-testid="kind-filter"][data-kind="demo"]').click();
    await expect(page.locator('[data-testid="kind-filter"][data-kind="demo"]')).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByTestId("transcript-row")).toHaveCount(1);
    await expect(row(page, "demo-gemini")).toBeVisible();
    await page.locator('[data-testid="kind-filter"][data-kind="all"]').click();
    await page.getByTestId("transcript-search").fill(`tiny goodbye ${stamp}`);
    await expect(page.getByTestId("transcript-row")).toHaveCount(1);
    await expect(row(page, byeId)).toBeVisible();
    // By profile too.
    await page.getByTestId("transcript-search").fill("handmade");
    await expect(row(page, byeId)).toBeVisible();
    await page.getByTestId("transcript-search").fill("no such thing at all");
    await expect(page.getByTestId("no-match")).toBeVisible();
    await page.getByTestId("transcript-search").fill("");
  });

  test("replays are not listed as profiles (the demo aside); Replay as mock agent picks one, by title", async () => {
    // The relay lists profiles once per page load (RelayInfo): load after the uploads.
    await page.goto(url());
    await page.getByTestId("nav-transcripts").click();
    await row(page, byeId).getByTestId("replay-transcript").click();
    await expect(page.getByTestId("profile-select")).toHaveValue(`replay:${byeId}`);
    // Only the chosen one and the shipped demo, though three uploads are replayable too.
    await expect(page.locator('[data-testid="profile-select"] option[value^="replay:"]')).toHaveCount(2);
    await expect(page.locator('[data-testid="profile-select"] option[value="replay:demo-gemini"]')).toHaveCount(1);
    await expect(page.locator(`[data-testid="profile-select"] option[value="replay:${byeId}"]`)).toHaveText(
      `replay — “Tiny goodbye ${stamp}”`,
    );
    await page.getByTestId("nav-transcripts").click();
  });

  test("share: says it is a share token, hides the command line and paths unless chosen", async ({ browser }) => {
    await row(page, byeId).getByTestId("share-transcript").click();
    const shareBox = row(page, byeId).locator("xpath=following-sibling::tr[1]");
    await expect(shareBox.getByTestId("share-box")).not.toContainText("no access token needed");
    await expect(shareBox.getByTestId("share-show-command")).not.toBeChecked();
    await shareBox.getByTestId("create-share").click();
    await expect(shareBox.getByTestId("share-box")).toContainText("share token");
    const shareUrl = await shareBox.getByTestId("share-url").inputValue();
    const shared = await (await browser.newContext()).newPage();
    await shared.goto(shareUrl);
    await expect(shared.getByTestId("viewer-title")).toHaveText(`Tiny goodbye ${stamp}`);
    await expect(shared.getByText("(hidden)")).toBeVisible();
    const text = await shared.locator("body").innerText();
    expect(text).not.toContain("secret-project");
    expect(text).not.toContain("/opt/secret-tools");
    const body = await (await fetch(shareUrl.replace("/share/", "/api/share/"))).text();
    expect(body).not.toContain("secret-project");
    expect(body).toContain("<workspace>");

    await shareBox.getByTestId("share-show-command").check();
    await expect
      .poll(async () => (await listIds()).find((t) => t.id === byeId) as Meta & { shareShowsCommand?: boolean })
      .toMatchObject({ shareShowsCommand: true });
    // The same link, now with the command line.
    expect(await shareBox.getByTestId("share-url").inputValue()).toBe(shareUrl);
    await shared.reload();
    await expect(shared.getByText("/opt/secret-tools/agent", { exact: false })).toBeVisible();
    await shared.context().close();
    await shareBox.getByTestId("revoke-share").click();
  });

  test("the re-run diff names the fields that differ, both values side by side", async () => {
    await page.goto(`${origin()}/transcripts/${helloIds[0]}?rerun`);
    // ?rerun opens the re-run panel.
    await page.getByTestId("rerun-profile").selectOption(`replay:${byeId}`);
    await page.getByTestId("rerun-start").click();
    await expect(page.getByTestId("rerun-different")).toBeVisible();
    const step = page.getByTestId("diff-step").filter({ hasText: "agent_message_chunk" });
    await expect(step).toHaveAttribute("data-kind", "changed");
    const field = step.locator('[data-testid="diff-field"][data-path="text"]');
    await expect(field.getByTestId("diff-recorded")).toHaveText('"hello"');
    await expect(field.getByTestId("diff-actual")).toHaveText('"goodbye"');
  });
});
