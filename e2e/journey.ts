/**
 * The steps every protocol's journey shares (e2e/journey-*.spec.ts): Connect -> prompt -> the agent
 * asks -> answer on its card -> the turn ends -> the recording in the library -> replay it as a mock
 * agent -> the profile's probe on the Profiles page. What differs by protocol (the card, how a turn
 * ends, the verdict) stays in each spec.
 */
import { expect, type Locator, type Page } from "@playwright/test";
import { url } from "./helpers";

const origin = () => new URL(url()).origin;
const auth = () => ({ authorization: `Bearer ${new URL(url()).searchParams.get("token")}` });

/** The ids of the stored session recordings of a profile, newest first (as the API lists them). */
export async function sessionIds(profile: string): Promise<string[]> {
  const res = await fetch(`${origin()}/api/transcripts`, { headers: auth() });
  expect(res.status).toBe(200);
  const { transcripts } = (await res.json()) as { transcripts: { id: string; kind: string; profile: string }[] };
  return transcripts.filter((t) => t.kind === "session" && t.profile === profile).map((t) => t.id);
}

/** The one recording of `profile` that was not among `before`, once it is stored. */
export async function newRecording(profile: string, before: readonly string[]): Promise<string> {
  const known = new Set(before);
  const fresh = async () => (await sessionIds(profile)).filter((id) => !known.has(id));
  await expect.poll(fresh).toHaveLength(1);
  return (await fresh())[0]!;
}

/**
 * What the conversation shows, in order: who said what, the tool calls' titles (ACP) and the commands
 * (the app-server's thread view). The same for a recording and its replay.
 */
export function conversationText(page: Page): Promise<string[]> {
  return page
    .getByTestId("conversation")
    .locator(
      ["user-message", "agent-message", "tool-title", "as-command"].map((id) => `[data-testid="${id}"]`).join(", "),
    )
    .evaluateAll((els) => els.map((el) => `${el.getAttribute("data-testid")}: ${el.textContent?.trim()}`));
}

/** The recording's row in the library (the Transcripts page, reached from the nav). */
export async function libraryRow(page: Page, id: string): Promise<Locator> {
  await page.getByTestId("nav-transcripts").click();
  const row = page.locator(`[data-testid="transcript-row"][data-id="${id}"]`);
  await expect(row).toBeVisible();
  return row;
}

/** "Replay as mock agent" on the recording's library row, then Connect, replayed without pauses. */
export async function connectReplay(page: Page, row: Locator, id: string): Promise<void> {
  await row.getByTestId("replay-transcript").click();
  await expect(page.getByTestId("profile-select")).toHaveValue(`replay:${id}`);
  await page.getByTestId("option-speed").selectOption("instant");
  await page.getByTestId("connect").click();
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
}

/** Probes a profile from its row on the Profiles page; returns the report once it is that profile's. */
export async function probeProfile(page: Page, profile: string, timeout: number): Promise<Locator> {
  await page.getByTestId("nav-profiles").click();
  await page.locator(`[data-testid="profile-row"][data-name="${profile}"]`).getByTestId("probe-button").click();
  const report = page.getByTestId("probe-report");
  await expect(report).toHaveAttribute("data-profile", profile, { timeout });
  return report;
}
