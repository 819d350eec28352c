/**
 * The library's search and links to a frame: a transcript imported through the API is found
 * from the Transcripts page by a word deep inside it; the hit opens the viewer scrolled to that
 * frame, selected; `#seq=N` links (the viewer, a share page) do the same, and Copy link gives one.
 * Everything waits on locators, never on sleeps.
 */
import { expect, test, type Page } from "@playwright/test";
import { url } from "./helpers";

const origin = () => process.env.E2E_ORIGIN!;
const token = () => new URL(url()).searchParams.get("token")!;
const auth = () => ({ authorization: `Bearer ${token()}` });

const WORD = `zanzibar${Date.now().toString(36)}`;
const FRAMES = 400;
const TARGET = 321;

/** A transcript of FRAMES agent messages; frame TARGET says WORD. */
function transcript(): string {
  const lines = [
    JSON.stringify({
      type: "header",
      format: "acp-playground-transcript",
      version: "1.0",
      id: "x",
      createdAt: new Date().toISOString(),
      playground: { version: "e2e" },
      agent: { profile: "search-e2e", command: "agent", args: [], cwd: "/w" },
    }),
  ];
  for (let seq = 1; seq <= FRAMES; seq++) {
    const text = seq === TARGET ? `the hidden ${WORD} is here` : `chunk number ${seq}`;
    const raw = JSON.stringify({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } },
    });
    lines.push(
      JSON.stringify({
        type: "frame",
        seq,
        ts: 1_700_000_000_000 + seq,
        dir: "from-agent",
        raw,
        kind: "notification",
        method: "session/update",
      }),
    );
  }
  return `${lines.join("\n")}\n`;
}

let id = "";

test.beforeAll(async () => {
  const res = await fetch(`${origin()}/api/transcripts`, { method: "POST", headers: auth(), body: transcript() });
  expect(res.status).toBe(201);
  id = ((await res.json()) as { id: string }).id;
  // The index catches up in its own thread.
  await expect
    .poll(async () => {
      const r = await fetch(`${origin()}/api/search?q=${WORD}`, { headers: auth() });
      return ((await r.json()) as { total: number }).total;
    })
    .toBe(1);
});

async function expectSelected(page: Page, seq: number) {
  await expect(page.getByTestId("view-pane")).toHaveAttribute("data-view", "frames");
  const row = page.locator(`[data-testid="frame-row"][data-seq="${seq}"]`);
  await expect(row).toBeInViewport();
  await expect(row).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("frame-detail")).toContainText(WORD);
}

test("search every recording, then open the frame it found", async ({ page }) => {
  await page.goto(`${origin()}/transcripts?token=${token()}`);
  await page.getByTestId("library-search-input").fill(`hidden ${WORD.slice(0, 6)}`);
  const hit = page.getByTestId("search-hit");
  await expect(hit).toHaveCount(1);
  await expect(hit).toHaveAttribute("data-seq", String(TARGET));
  await expect(hit.locator("mark")).toHaveText(["hidden", WORD]);
  // A filter that leaves it out, then one that keeps it.
  await page.getByTestId("search-errors").check();
  await expect(page.getByTestId("search-summary")).toHaveText("No frame matches.");
  await page.getByTestId("search-errors").uncheck();
  await page.getByTestId("search-profile").selectOption("search-e2e");
  await expect(hit).toHaveCount(1);
  await hit.locator("a").click();
  await expect(page).toHaveURL(new RegExp(`/transcripts/${id}#seq=${TARGET}$`));
  await expectSelected(page, TARGET);
});

test("a search while the index catches up says how far it has got, and a cut query says so", async ({ page }) => {
  // The relay's answer, as it is while a large library is still being indexed (and cut to its limits).
  await page.route("**/api/search?*", async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as Record<string, unknown>;
    await route.fulfill({
      response: res,
      json: {
        ...body,
        progress: { indexedDocs: 1200, totalDocs: 5000, indexedBytes: 250 << 20, totalBytes: 1000 << 20 },
        cut: "The query was cut: only the first 16 of its 20 different words or phrases were searched.",
      },
    });
  });
  await page.goto(`${origin()}/transcripts?token=${token()}`);
  await page.getByTestId("library-search-input").fill(WORD);
  await expect(page.getByTestId("search-hit")).toHaveCount(1);
  await expect(page.getByTestId("search-progress")).toHaveText("index 25% — results may be incomplete");
  await expect(page.getByTestId("search-cut")).toContainText("only the first 16 of its 20");
});

test("a #seq=N link opens the viewer scrolled to that frame, selected; Copy link gives it", async ({ page }) => {
  await page.goto(`${origin()}/transcripts/${id}?token=${token()}#seq=${TARGET}`);
  await expectSelected(page, TARGET);
  await expect(page.getByTestId("copy-frame-link")).toHaveAttribute(
    "data-link",
    `${origin()}/transcripts/${id}#seq=${TARGET}`,
  );
  // Another link on the same page opens that frame.
  await page.evaluate(() => (window.location.hash = "#seq=12"));
  await expect(page.locator('[data-testid="frame-row"][data-seq="12"]')).toHaveAttribute("aria-selected", "true");
});

test("a share page opens at its #seq=N too", async ({ page }) => {
  const res = await fetch(`${origin()}/api/transcripts/${id}/share`, { method: "POST", headers: auth() });
  const shareToken = ((await res.json()) as { shareToken: string }).shareToken;
  await page.goto(`${origin()}/share/${id}?token=${shareToken}#seq=${TARGET}`);
  await expectSelected(page, TARGET);
  await expect(page.getByTestId("copy-frame-link")).toHaveAttribute(
    "data-link",
    `${origin()}/share/${id}?token=${shareToken}#seq=${TARGET}`,
  );
});
