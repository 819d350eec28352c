/**
 * What the e2e specs share: the page's URL, frame-row locators, the fake API's script (a scripted
 * write among it), Connect and prompt, the agent's policies, stopping the agent, and what a failed
 * test prints or fails on.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";

export const url = () => process.env.E2E_URL!;

/** Frame rows, optionally only those whose data-* attributes have these values. */
export const rows = (page: Page, attrs: Record<string, string> = {}) =>
  page.locator(
    `[data-testid="frame-row"]${Object.entries(attrs)
      .map(([k, v]) => `[data-${k}="${v}"]`)
      .join("")}`,
  );

/**
 * Scripts the fake Gemini API's model turns (one per streamGenerateContent call), replacing any
 * an earlier test left unplayed: a failed test must not hand its turns to the next one.
 */
export async function scriptTurns(turns: object[]): Promise<void> {
  const res = await fetch(`${process.env.E2E_FAKE_API}/__fake/script`, {
    method: "POST",
    body: JSON.stringify({ turns, replace: true }),
  });
  expect(res.status).toBe(204);
}

/** Scripts the fake Responses API's model turns for the codex profile, replacing any left unplayed (as scriptTurns). */
export async function scriptResponses(turns: object[]): Promise<void> {
  const res = await fetch(`${process.env.E2E_FAKE_RESPONSES}/__fake/script`, {
    method: "POST",
    body: JSON.stringify({ turns, replace: true }),
  });
  expect(res.status).toBe(204);
}

/** A path in the e2e workspace (the relay's workspace root and the sessions' cwd). */
export const workspaceFile = (name: string) => path.join(process.env.E2E_WORKSPACE!, name);

/**
 * Scripts a model turn that writes `content` to `target`, then one that says `reply`. `before` makes
 * the file exist first: Gemini with fs capabilities reads it through the playground before asking
 * (and cannot create a new file that way, docs/gemini-quirks.md).
 */
export async function scriptWrite(
  target: string,
  content: string,
  { before, reply = "Done." }: { before?: string; reply?: string } = {},
): Promise<void> {
  if (before !== undefined) writeFileSync(target, before);
  await scriptTurns([
    { parts: [{ functionCall: { name: "write_file", args: { file_path: target, content } } }] },
    { parts: [{ text: reply }] },
  ]);
}

/** Opens a tool of the side panel (compose, raw, sessions, stderr); its toggle closes it when open already. */
export async function openPanel(page: Page, tab: "compose" | "raw" | "sessions" | "stderr"): Promise<void> {
  const toggle = page.getByTestId(`column-tab-${tab}`);
  if ((await toggle.getAttribute("aria-pressed")) !== "true") await toggle.click();
  await expect(page.getByTestId(`column-panel-${tab}`)).toBeVisible();
}

/** The one answer card of a waiting request, wherever the view shows it: in the conversation or in the prompt dock. */
export const requestCard = (page: Page, method: string) =>
  page.locator(`:is([data-testid="inline-request"],[data-testid="pending-card"])[data-method="${method}"]`);

/** Start agent (the chosen profile, nothing sent to it yet), once it runs. */
export async function startAgent(page: Page): Promise<void> {
  await page.getByTestId("start-agent").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "running");
}

/** A raw composer template (initialize, session/new, session/prompt), sent as the template fills it. */
export async function sendTemplate(page: Page, template: string): Promise<void> {
  await page.getByTestId(template).click();
  await page.getByTestId("send-frame").click();
}

export async function stopAgent(page: Page): Promise<void> {
  await page.getByTestId("stop-agent").click();
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "exited");
}

/**
 * Opens the playground (with `?profile=` when given) and Connects. `fs` has Connect advertise fs
 * read and write (to gemini): the built-in gemini profile advertises none (Gemini then edits files itself after a
 * permission), and journeys about the playground's fs answers need Gemini to ask for them.
 */
export async function connect(page: Page, { fs = false, profile }: { fs?: boolean; profile?: string } = {}) {
  const link = new URL(url());
  if (profile) link.searchParams.set("profile", profile);
  // Kept choices, as a returning user has them (ticking is connect.spec.ts's journey).
  if (fs)
    await page.addInitScript(() =>
      localStorage.setItem("acp-playground.connect.gemini", JSON.stringify({ fsRead: true, fsWrite: true })),
    );
  await page.goto(link.toString());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  if (fs) for (const cap of ["cap-fsRead", "cap-fsWrite"]) await expect(page.getByTestId(cap)).toBeChecked();
  await page.getByTestId("connect").click();
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
}

/** Sends a prompt from the prompt box, then leaves the box, so answer keys go to the page. */
export async function prompt(page: Page, text: string) {
  const input = page.getByTestId("prompt-input");
  await input.fill(text);
  await input.press("Enter");
  await input.blur();
}

/** Opens the "policies" disclosure, unless it is open. */
export async function openPolicies(page: Page): Promise<void> {
  const details = page.getByTestId("policies");
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator("summary").click();
}

/** Sets how the page answers one method of the agent's requests, once the relay acknowledged it. */
export async function setPolicy(page: Page, method: string, policy: "ask" | "auto" | "deny"): Promise<void> {
  await openPolicies(page);
  const select = page.locator(`[data-testid="policy-select"][data-method="${method}"]`);
  await select.selectOption(policy);
  // What is shown is what the relay acknowledged.
  await expect(select).toHaveAttribute("data-acked", policy);
}

/** Chooses a policy preset ("writes": reads are served, the permission and the write wait) and sees it chosen. */
export async function choosePreset(page: Page, preset: "writes" | "auto"): Promise<void> {
  await openPolicies(page);
  const button = page.locator(`[data-testid="policy-preset"][data-preset="${preset}"]`);
  await button.click();
  await expect(button).toHaveAttribute("aria-pressed", "true");
}

/**
 * A render error shows as a broken page much later: a page error fails the test it happened in,
 * with its message. For each test's own `page`, and any page handed to the returned function (a
 * serial journey's shared page).
 */
export function failOnPageErrors(): (page: Page) => void {
  const errors: string[] = [];
  const watch = (page: Page) => void page.on("pageerror", (e) => errors.push(e.message));
  test.beforeEach(({ page }) => {
    errors.length = 0;
    watch(page);
  });
  test.afterEach(() => expect(errors.splice(0)).toEqual([]));
  return watch;
}

/**
 * When a test of this file fails, prints the newest session transcript's events, one cut line each:
 * CI keeps only the log, and what the agent was sent and asked is what a failed journey needs.
 */
export function printFramesOnFailure(): void {
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status === testInfo.expectedStatus) return;
    const origin = new URL(url()).origin;
    const headers = { authorization: `Bearer ${new URL(url()).searchParams.get("token")}` };
    try {
      const list = (await (await fetch(`${origin}/api/transcripts`, { headers })).json()) as {
        transcripts: { id: string; kind: string }[];
      };
      const newest = list.transcripts.find((t) => t.kind === "session");
      const jsonl = newest ? await (await fetch(`${origin}/api/transcripts/${newest.id}`, { headers })).text() : "";
      const lines = jsonl.trimEnd().split("\n");
      console.log(`-- ${testInfo.title}: transcript ${newest?.id ?? "(none)"}, its first and last events`);
      const shown = lines.length > 80 ? [...lines.slice(0, 15), "…", ...lines.slice(-60)] : lines;
      for (const line of shown) console.log(line.length > 400 ? `${line.slice(0, 400)}…` : line);
    } catch (e) {
      console.log(`-- could not print the transcript: ${String(e)}`);
    }
    try {
      const calls = await (await fetch(`${process.env.E2E_FAKE_API}/__fake/calls`)).json();
      console.log(`-- the fake Gemini API's latest calls: ${JSON.stringify(calls)}`);
    } catch (e) {
      console.log(`-- could not print the fake Gemini API's calls: ${String(e)}`);
    }
  });
}
