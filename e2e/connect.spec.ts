/** Connect with an agent that requires authentication (test/fixtures/auth-agent.mjs), and the capabilities it advertises. */
import { expect, test, type Page } from "@playwright/test";
import { printFramesOnFailure, rows, stopAgent, url } from "./helpers";

printFramesOnFailure();

test("the auth chooser lists the methods by type and says authenticated only after the answer", async ({ page }) => {
  await page.goto(url());
  await page.getByTestId("profile-select").selectOption("auth");
  await page.getByTestId("connect").click();
  const chooser = page.getByTestId("auth-chooser");
  await expect(chooser).toBeVisible();
  await expect(page.getByTestId("auth-error")).toContainText('Authentication required (-32000): {"hint":"stub"}');
  await expect(page.getByTestId("auth-method")).toHaveCount(3);

  await chooser.getByText("Stub API key").click();
  await expect(page.getByTestId("env-missing")).toContainText("STUB_LOGIN");

  await chooser.getByText("Stub terminal login").click();
  await expect(page.getByTestId("terminal-command")).toContainText("auth-agent.mjs 800 --login");
  await expect(page.getByTestId("terminal-copy")).toBeVisible();
  await expect(page.getByTestId("auth-retry")).toBeVisible();

  await chooser.getByText("Stub login").click();
  await page.getByTestId("auth-authenticate").click();
  const detail = page.getByTestId("connect-detail");
  await expect(detail).toContainText("authenticating with Stub login…");
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
  await expect(detail).toContainText("authenticated with Stub login");
  await stopAgent(page);
});

test("the capabilities checkboxes follow the profile, persist, and flag Gemini's fs quirk", async ({ page }) => {
  await page.goto(url());
  await page.getByTestId("profile-select").selectOption("gemini");
  await expect(page.getByTestId("cap-fsRead")).not.toBeChecked();
  await expect(page.getByTestId("gemini-fs-quirk")).toHaveCount(0);
  await page.getByTestId("cap-fsRead").check();
  await expect(page.getByTestId("gemini-fs-quirk")).toBeVisible();
  await page.reload();
  await page.getByTestId("profile-select").selectOption("gemini");
  await expect(page.getByTestId("cap-fsRead")).toBeChecked();
  await page.getByTestId("cap-fsRead").uncheck();
  await page.getByTestId("profile-select").selectOption("auth");
  await expect(page.getByTestId("cap-fsRead")).toBeChecked();
  await expect(page.getByTestId("cap-terminal")).toBeChecked();
});

/** Holds back the relay's answers to relay:info (as a loaded relay gives them late); call the result to release them. */
async function holdRelayInfo(page: Page): Promise<() => void> {
  let held: Array<() => void> | undefined = [];
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    const infoIds = new Set<string>();
    ws.onMessage((message) => {
      const info = /^42(\d+)\["relay:info"/.exec(String(message))?.[1];
      if (info) infoIds.add(info);
      server.send(message);
    });
    server.onMessage((message) => {
      const ack = /^43(\d+)/.exec(String(message))?.[1];
      if (held && ack && infoIds.has(ack)) held.push(() => ws.send(message));
      else ws.send(message);
    });
  });
  return () => {
    for (const answer of held ?? []) answer();
    held = undefined;
  };
}

test("Connect waits for the relay's info, then opens the session in the workspace root", async ({ page }) => {
  const release = await holdRelayInfo(page);
  await page.addInitScript(() => localStorage.setItem("acp-playground.view", "frames"));
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  await expect(page.getByTestId("cwd-input")).toHaveAttribute("placeholder", "workspace root");
  // Before the relay names the profile, neither what Connect advertises nor the workspace is known.
  await expect(page.getByTestId("connect")).toBeDisabled();
  await expect(page.getByTestId("connect")).toHaveAttribute("title", /Waiting for the relay/);
  release();
  await page.getByTestId("connect").click();
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
  await rows(page, { kind: "request", method: "session/new", dir: "to-agent" }).click();
  await expect(page.getByTestId("frame-detail").getByTestId("frame-raw")).toContainText(
    `"cwd":"${process.env.E2E_WORKSPACE}"`,
  );
  await stopAgent(page);
});

test("capabilities cannot be ticked before the relay names the profile, so a tick is never overwritten", async ({
  page,
}) => {
  const release = await holdRelayInfo(page);
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  // Unknown profile, unknown defaults: nothing shows ticked (a ticked box would not be ticked again).
  for (const cap of ["cap-fsRead", "cap-fsWrite", "cap-terminal"]) {
    await expect(page.getByTestId(cap)).toBeDisabled();
    await expect(page.getByTestId(cap)).not.toBeChecked();
  }
  release();
  await expect(page.getByTestId("cap-fsRead")).toBeEnabled();
  await page.getByTestId("cap-fsRead").check();
  await page.getByTestId("cap-fsWrite").check();
  await expect(page.getByTestId("cap-fsRead")).toBeChecked();
  await expect(page.getByTestId("cap-fsWrite")).toBeChecked();
});

test("Connect pressed as soon as it can be advertises the kept choices, not a warm agent's defaults", async ({
  page,
}) => {
  const release = await holdRelayInfo(page);
  await page.addInitScript(() => {
    localStorage.setItem("acp-playground.view", "frames");
    localStorage.setItem("acp-playground.connect.gemini", JSON.stringify({ fsRead: true, fsWrite: true }));
  });
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  // Pressed at once: the click waits for the button while the relay's info is held, then arrives.
  const clicked = page.getByTestId("connect").click();
  await expect(page.getByTestId("cap-fsRead")).toBeDisabled();
  release();
  await clicked;
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "ready");
  // This page's own initialize (a warm agent's would carry the profile's defaults: no fs).
  await rows(page, { kind: "request", method: "initialize", dir: "to-agent" }).click();
  const raw = page.getByTestId("frame-detail").getByTestId("frame-raw");
  await expect(raw).toContainText('"fs":{"readTextFile":true,"writeTextFile":true}');
  // The profile's own default (no terminal), not the no-profile defaults (all on).
  await expect(raw).toContainText('"terminal":false');
  await expect(page.getByTestId("connect-status")).not.toContainText("warm agent");
  await stopAgent(page);
});
