/**
 * A library that stays clean: a failed Connect leaves a transcript of its start, but not as a row
 * of the library's "all" nor as a replay profile; the "no turn" filter shows it.
 */
import { expect, test } from "@playwright/test";
import { url } from "./helpers";

const origin = () => process.env.E2E_ORIGIN!;
const auth = () => ({ authorization: `Bearer ${new URL(url()).searchParams.get("token")!}` });

interface Meta {
  id: string;
  profile: string;
  kind: string;
  recording: boolean;
}

const transcripts = async (): Promise<Meta[]> =>
  ((await (await fetch(`${origin()}/api/transcripts`, { headers: auth() })).json()) as { transcripts: Meta[] })
    .transcripts;

test("a failed Connect is no row of the library's 'all' nor a replay profile; 'no turn' shows it", async ({ page }) => {
  const before = new Set((await transcripts()).map((t) => t.id));
  await page.goto(url());
  await page.getByTestId("profile-select").selectOption("missing");
  await page.getByTestId("connect").click();
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "failed");

  let failed: Meta | undefined;
  await expect
    .poll(async () => {
      failed = (await transcripts()).find((t) => !before.has(t.id) && t.profile === "missing" && !t.recording);
      return failed?.kind;
    })
    .toBe("unstarted");

  await page.getByTestId("nav-transcripts").click();
  await expect(page.locator('[data-testid="transcript-row"][data-id="demo-gemini"]')).toBeVisible();
  const row = page.locator(`[data-testid="transcript-row"][data-id="${failed!.id}"]`);
  await expect(row).toHaveCount(0);
  await page.locator('[data-testid="kind-filter"][data-kind="unstarted"]').click();
  await expect(row).toBeVisible();
  await expect(row).toContainText("no turn");

  const { profiles } = (await (await fetch(`${origin()}/api/profiles`, { headers: auth() })).json()) as {
    profiles: Array<{ name: string }>;
  };
  expect(profiles.map((p) => p.name)).not.toContain(`replay:${failed!.id}`);
});
