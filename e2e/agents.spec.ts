/**
 * The journeys every agent goes through, in the browser, against the
 * third-party agents (test/agents, pinned) behind the fake OpenAI and Anthropic
 * APIs: pick the profile, Connect, a prompt streamed into the Session view, a
 * tool call answered on its card, the transcript listed, and a replay of it as
 * a mock agent with the same answer. One agent start is shared by a journey's
 * steps (serial tests on one page); each test is named by agent and journey.
 * None of these agents asks for authentication with the fake APIs
 * (docs/agents.md), so Connect never shows an auth choice here.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { requestCard, setPolicy, stopAgent, url } from "./helpers";

interface AgentCase {
  profile: "qwen" | "claude" | "sdk-example";
  name: string;
  /** Where scripted model turns are queued (none: the agent plays its own script). */
  api?: () => string;
  /** The text the first prompt streams. */
  hello: string | RegExp;
  /** The model turns that make the agent write `file`, and the tool the model names. */
  write?: (file: string) => object[];
  /** The agent writes through the relay's fs/write_text_file. */
  writesThroughClient?: boolean;
}

const CASES: AgentCase[] = [
  {
    profile: "qwen",
    name: "Qwen Code",
    api: () => process.env.E2E_FAKE_OPENAI!,
    hello: "Hello from the fake API.",
    write: (file) => [
      { tools: [{ name: "write_file", input: { file_path: file, content: "hi\n" } }] },
      { text: ["Done."] },
    ],
    writesThroughClient: true,
  },
  {
    profile: "claude",
    name: "Claude's ACP adapter",
    api: () => process.env.E2E_FAKE_ANTHROPIC!,
    hello: "Hello from the fake API.",
    write: (file) => [{ tools: [{ name: "Write", input: { file_path: file, content: "hi\n" } }] }, { text: ["Done."] }],
  },
  // Every turn of the SDK example streams text, then an edit that asks permission.
  { profile: "sdk-example", name: "the ACP SDK example agent", hello: /I.ll help you with that\./ },
];

const origin = () => process.env.E2E_ORIGIN!;
const token = () => new URL(url()).searchParams.get("token")!;
const items = (page: Page, type: string) => page.locator(`[data-testid="sv-item"][data-type="${type}"]`);
const footers = (page: Page) => page.getByTestId("turn-footer");

async function script(api: string, turns: object[]): Promise<void> {
  const res = await fetch(`${api}/__fake/script`, { method: "POST", body: JSON.stringify({ turns }) });
  expect(res.status).toBe(204);
}

async function connect(page: Page) {
  await page.getByTestId("connect").click();
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready", { timeout: 90_000 });
  await expect(page.getByTestId("prompt-input")).toBeVisible();
}

async function prompt(page: Page, text: string) {
  const input = page.getByTestId("prompt-input");
  await input.fill(text);
  await input.press("Enter");
}

interface Meta {
  id: string;
  profile: string;
  turns: number;
  recording: boolean;
}

async function transcripts(): Promise<Meta[]> {
  const res = await fetch(`${origin()}/api/transcripts`, { headers: { authorization: `Bearer ${token()}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { transcripts: Meta[] }).transcripts;
}

for (const agent of CASES) {
  test.describe(`${agent.name} (${agent.profile})`, () => {
    test.describe.configure({ mode: "serial" });
    let page: Page;
    const errors: string[] = [];
    const file = () => path.join(process.env.E2E_WORKSPACE!, `agents-${agent.profile}.txt`);
    let transcriptId = "";

    test.beforeAll(async ({ browser }) => {
      page = await browser.newPage();
      page.on("pageerror", (e) => errors.push(e.message));
    });
    test.afterAll(async () => {
      await page?.close();
      rmSync(file(), { force: true });
    });

    test(`${agent.profile}: pick the profile and Connect`, async () => {
      test.setTimeout(120_000);
      await page.goto(url());
      await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
      await page.getByTestId("profile-select").selectOption(agent.profile);
      if (agent.writesThroughClient) {
        // The relay serves the agent's file reads and writes; the permission still waits for the user.
        await setPolicy(page, "fs/read_text_file", "auto");
        await setPolicy(page, "fs/write_text_file", "auto");
      }
      await connect(page);
      await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "running");
      await expect(page.getByTestId("session-header")).toBeVisible();
    });

    test(`${agent.profile}: a prompt streams the answer into the Session view`, async () => {
      test.setTimeout(90_000);
      if (agent.api) await script(agent.api(), [{ text: ["Hello ", "from the fake API."] }]);
      await prompt(page, "Say hello");
      await expect(items(page, "agent_message").first()).toContainText(agent.hello);
      // The SDK example's turn goes on to ask permission: the next test answers it.
      if (agent.write) await expect(footers(page).first()).toHaveAttribute("data-stop-reason", "end_turn");
    });

    test(`${agent.profile}: a tool call answered on its card`, async () => {
      test.setTimeout(90_000);
      if (agent.write) {
        rmSync(file(), { force: true });
        await script(agent.api!(), agent.write(file()));
        await prompt(page, `Write ${path.basename(file())}`);
      }
      const tool = page.getByTestId("tool-call").filter({ has: page.getByTestId("tool-permission") });
      await expect(tool.getByTestId("tool-permission")).toHaveAttribute("data-state", "pending");
      const card = requestCard(page, "session/request_permission");
      await expect(card).toHaveCount(1);
      await card.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
      await expect(card).toHaveCount(0);
      await expect(tool.getByTestId("tool-permission")).toHaveAttribute("data-state", "selected");
      await expect(tool).toHaveAttribute("data-status", "completed");
      const turn = agent.write ? 1 : 0;
      await expect(footers(page).nth(turn)).toHaveAttribute("data-stop-reason", "end_turn");
      if (agent.write) expect(readFileSync(file(), "utf8")).toBe("hi\n");
      await stopAgent(page);
    });

    test(`${agent.profile}: the transcript is listed`, async () => {
      let found: Meta | undefined;
      await expect
        .poll(async () => {
          found = (await transcripts()).find((t) => t.profile === agent.profile && !t.recording && t.turns > 0);
          return found?.turns;
        })
        .toBe(agent.write ? 2 : 1);
      transcriptId = found!.id;
      await page.getByTestId("nav-transcripts").click();
      await expect(page.locator(`[data-testid="transcript-row"][data-id="${transcriptId}"]`)).toBeVisible();
    });

    test(`${agent.profile}: replayed as a mock agent, the same answer`, async () => {
      test.setTimeout(60_000);
      await page
        .locator(`[data-testid="transcript-row"][data-id="${transcriptId}"]`)
        .getByTestId("replay-transcript")
        .click();
      await expect(page.getByTestId("profile-select")).toHaveValue(`replay:${transcriptId}`);
      await page.getByTestId("option-speed").selectOption("instant");
      await connect(page);
      await prompt(page, "Say hello");
      await expect(items(page, "agent_message").first()).toContainText(agent.hello);
      await stopAgent(page);
      expect(errors).toEqual([]);
    });
  });
}
