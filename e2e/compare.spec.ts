/**
 * Two agents side by side: the real Gemini CLI twice (two models) behind the
 * fake Gemini API, one prompt, both answers and tool calls aligned in the
 * split view; the pair is saved, listed, reopened read-only and shared.
 */
import { expect, test } from "@playwright/test";
import { printFramesOnFailure, scriptTurns, url } from "./helpers";

printFramesOnFailure();

const origin = () => process.env.E2E_ORIGIN!;
const token = () => new URL(url()).searchParams.get("token")!;

test("one prompt on two agents: answers and tool calls side by side, saved, listed, reopened and shared", async ({
  page,
  browser,
}) => {
  // Each side asks first for a tool call (the same write), then for the closing text. The turns are
  // scripted per model: a side that starts first would otherwise loop into the other side's turns.
  const write = {
    parts: [{ functionCall: { name: "write_file", args: { file_path: "hello.txt", content: "hi\n" } } }],
  };
  const done = { parts: [{ text: "Done: wrote hello.txt." }] };
  const turns = (model: string) => [write, done].map((turn) => ({ ...turn, model }));
  await scriptTurns([...turns("gemini-2.5-flash"), ...turns("gemini-2.5-pro")]);
  // Policies kept in this browser ask for everything: the compare page's own (permissions granted) must hold.
  await page.addInitScript(() =>
    localStorage.setItem("acp-playground.policies", JSON.stringify({ "session/request_permission": "ask" })),
  );

  await page.goto(`${origin()}/compare?token=${token()}`);
  await expect(page.getByTestId("nav-compare")).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { name: "Side by side: two agents, one prompt" })).toBeVisible();
  await expect(page.getByTestId("compare-help")).toContainText("tagged “comparison”");
  await page.getByTestId("compare-profile-a").selectOption("gemini");
  await page.getByTestId("compare-profile-b").selectOption("gemini");
  await page.getByTestId("compare-model-a").fill("gemini-2.5-flash");
  await page.getByTestId("compare-model-b").fill("gemini-2.5-pro");
  await page.getByTestId("compare-prompt").fill("Write hello.txt");
  await page.getByTestId("compare-run").click();

  // Each side's own Session view shows its own conversation.
  for (const side of ["a", "b"]) {
    const pane = page.getByTestId(`compare-side-${side}`);
    await expect(pane.getByTestId("compare-side-label")).toContainText(
      side === "a" ? "gemini model=gemini-2.5-flash" : "gemini model=gemini-2.5-pro",
    );
    await expect(pane.getByTestId("session-view")).toContainText("Done: wrote hello.txt.");
  }
  const report = page.getByTestId("comparison-report");
  await expect(report.getByTestId("compare-answer-a")).toHaveText("Done: wrote hello.txt.");
  await expect(report.getByTestId("compare-answer-b")).toHaveText("Done: wrote hello.txt.");
  await expect(report.getByTestId("compare-answers-equal")).toHaveText("same answer");
  const tool = report.getByTestId("compare-tool-row");
  await expect(tool).toHaveCount(1);
  await expect(tool).toHaveAttribute("data-match", "same");
  await expect(report.getByTestId("compare-file")).toContainText("hello.txt");
  await expect(report.getByTestId("compare-file")).toContainText("(same result)");
  await expect(page.getByTestId("compare-status")).toHaveText("done");

  // Saved: in the API, in the list, and reopened read-only with the same alignment.
  const saved = page.getByTestId("compare-saved");
  await expect(saved).toBeVisible();
  const id = (await saved.getAttribute("href"))!.split("/").pop()!;
  const res = await fetch(`${origin()}/api/comparisons/${id}`, { headers: { authorization: `Bearer ${token()}` } });
  expect(res.status).toBe(200);
  const record = (await res.json()) as { prompt: string; sides: Array<{ transcriptId: string; label: string }> };
  expect(record.prompt).toBe("Write hello.txt");
  expect(record.sides[0]!.transcriptId).not.toBe(record.sides[1]!.transcriptId);
  // Both transcripts are listed as a comparison's.
  const listed = await fetch(`${origin()}/api/transcripts`, { headers: { authorization: `Bearer ${token()}` } });
  const { transcripts } = (await listed.json()) as { transcripts: Array<{ id: string; kind: string }> };
  for (const side of record.sides) expect(transcripts.find((t) => t.id === side.transcriptId)?.kind).toBe("compare");

  await page.goto(`${origin()}/compare`);
  await expect(page.getByTestId("comparison-row").first()).toContainText("Write hello.txt");
  await page.getByTestId("comparison-row").first().getByRole("link").click();
  const viewer = page.getByTestId("comparison-viewer");
  await expect(viewer).toHaveAttribute("data-id", id);
  await expect(viewer.getByTestId("compare-answer-a")).toHaveText("Done: wrote hello.txt.");
  await expect(viewer.getByTestId("compare-answer-b")).toHaveText("Done: wrote hello.txt.");
  await expect(viewer.getByTestId("compare-tool-row")).toHaveAttribute("data-match", "same");
  // Read-only: no composer, no start button.
  await expect(page.getByTestId("compare-run")).toHaveCount(0);
  await expect(page.getByTestId("send-frame")).toHaveCount(0);

  // A share link opens both transcripts without the access token.
  await viewer.getByTestId("comparison-share").click();
  const link = await viewer.getByTestId("comparison-share-link").inputValue();
  expect(link).toContain(`/compare/shared/${id}?token=`);
  const stranger = await browser.newContext();
  const shared = await stranger.newPage();
  await shared.goto(link);
  await expect(shared.getByTestId("compare-answer-a")).toHaveText("Done: wrote hello.txt.");
  await expect(shared.getByTestId("compare-answer-b")).toHaveText("Done: wrote hello.txt.");
  await expect(shared.getByTestId("compare-side-label").first()).toContainText("gemini model=gemini-2.5-flash");
  // A wrong token opens nothing.
  await shared.goto(link.replace(/token=.*/, "token=wrong"));
  await expect(shared.getByTestId("comparison-error")).toContainText("not valid");
  await stranger.close();
});
