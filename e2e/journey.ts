/**
 * The steps every protocol's journey shares (e2e/journey-*.spec.ts): Connect -> prompt -> the agent
 * asks -> answer on its card -> the turn ends -> the recording in the library -> replay it as a mock
 * agent -> the profile's probe on the Profiles page. What differs by protocol (the card, how a turn
 * ends, the verdict) stays in each spec.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { connect, printFramesOnFailure, prompt, url } from "./helpers";
import { sharedPage } from "./shared-page";

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

/** What a journey's steps share: its page, Connect, its prompt, its recording and the conversation it showed. */
export interface Journey {
  /** Connect the profile, its recordings so far noted first (to find the one the journey makes). */
  connect(): Promise<void>;
  /** Sends the journey's prompt. */
  prompt(): Promise<void>;
  /** The conversation as it shows now, kept for the replay to show again; returned for the step's checks. */
  keepConversation(): Promise<string[]>;
  /** Registers the step "the recording is in the library" (its new recording, its row naming the prompt). */
  recordingInLibraryStep(): void;
  /** "Replay as mock agent" on the recording's row, then Connect. */
  connectReplay(): Promise<void>;
  /** The replay shows the conversation the recorded run showed. */
  expectSameConversation(): Promise<void>;
}

/**
 * The opening every journey shares, called inside its `test.describe.serial`: the frames printed when
 * a step fails, and one page for all the steps (a page error fails the step), given to `onPage`.
 */
export function journey(profile: string, text: string, onPage: (page: Page) => void): Journey {
  printFramesOnFailure();
  let page: Page | undefined;
  sharedPage(
    async (p) => {
      page = p;
      onPage(p);
    },
    { failOnPageErrors: true },
  );
  let before: string[] = [];
  let said: string[] = [];
  let recorded = "";
  let row: Locator | undefined;
  return {
    async connect() {
      before = await sessionIds(profile);
      await connect(page!, { profile });
    },
    prompt: () => prompt(page!, text),
    async keepConversation() {
      said = await conversationText(page!);
      return said;
    },
    recordingInLibraryStep() {
      test("the recording is in the library", async () => {
        recorded = await newRecording(profile, before);
        row = await libraryRow(page!, recorded);
        await expect(row).toContainText(text);
      });
    },
    connectReplay: () => connectReplay(page!, row!, recorded),
    expectSameConversation: () => expect.poll(() => conversationText(page!)).toEqual(said),
  };
}

/** ACP's permission card in the conversation. */
export const permissionCard = (page: Page) =>
  page.locator('[data-testid="inline-request"][data-method="session/request_permission"]');
/** The tool call's record of the answer: the option chosen. */
export const chosenOption = (page: Page) => page.locator('[data-testid="tool-permission"] [data-chosen="true"]');
/** The ACP turn's footer in the conversation. */
export const turnFooter = (page: Page) => page.getByTestId("conversation").getByTestId("turn-footer");

/** Allow once on ACP's permission card: the card goes, the tool call records it, the turn ends (end_turn). */
export async function allowOnce(page: Page): Promise<void> {
  await permissionCard(page).locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
  await expect(permissionCard(page)).toHaveCount(0);
  await expect(chosenOption(page)).toHaveAttribute("data-option-kind", "allow_once");
  await expect(turnFooter(page)).toHaveAttribute("data-stop-reason", "end_turn");
  await expect(turnFooter(page)).toHaveAttribute("data-waiting", "false");
}

/**
 * A replayed ACP turn ends with no card: a replayed agent's requests are answered from the recording
 * (RecordedClient), so the tool call shows the choice made when it was recorded.
 */
export async function answeredFromRecording(page: Page): Promise<void> {
  await expect(turnFooter(page)).toHaveAttribute("data-stop-reason", "end_turn");
  await expect(permissionCard(page)).toHaveCount(0);
  await expect(chosenOption(page)).toHaveAttribute("data-option-kind", "allow_once");
}

/** The probe report's part for `variant` passes each of the requirements `ids`. */
export async function expectPassing(report: Locator, variant: string, ids: readonly string[]): Promise<void> {
  const part = report.locator(`[data-testid="conformance-part"][data-variant="${variant}"]`);
  for (const id of ids)
    await expect(part.locator(`[data-testid="requirement-row"][data-id="${id}"]`)).toHaveAttribute(
      "data-status",
      "pass",
    );
}
