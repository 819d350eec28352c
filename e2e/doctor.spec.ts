/**
 * The doctor: a failed Connect says why and what to do, and the Profiles page's "Check" runs the
 * same diagnosis on demand. "missing" names an executable that does not exist; "cards" is a stub
 * agent that opens a session (e2e/global-setup.ts).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { url } from "./helpers";

test("a Connect that cannot start the agent says why, and what to do", async ({ page }) => {
  await page.goto(url());
  await page.getByTestId("profile-select").selectOption("missing");
  await page.getByTestId("connect").click();
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "failed");
  const finding = page.getByTestId("connect-diagnosis").getByTestId("doctor-finding");
  await expect(finding).toHaveAttribute("data-kind", "not-found");
  await expect(finding).toContainText(/no executable file at .*no-such-agent/);
  await expect(finding).toContainText("What to do:");
});

test("a line that is not JSON-RPC is named the moment it arrives, while initialize still waits", async ({ page }) => {
  await page.goto(url());
  await page.getByTestId("profile-select").selectOption("greeting");
  await page.getByTestId("connect").click();
  const live = page.locator('[data-testid="connect-diagnosis"][data-live="true"]');
  await expect(live.getByTestId("doctor-finding")).toHaveAttribute("data-kind", "stdout-noise");
  await expect(live.getByTestId("doctor-finding")).toContainText('"hello from a shell profile"');
  // Initialize has no answer yet (it would time out in 30 s): the doctor did not wait for it.
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "initialize");
  await page.getByTestId("stop-agent").click();
});

test("an agent that echoes its input is named as such, stopped, and its failure said once", async ({ page }) => {
  await page.goto(url());
  await page.getByTestId("profile-select").selectOption("echo");
  await page.getByTestId("connect").click();
  await expect(page.getByTestId("connect-status")).toHaveAttribute("data-step", "failed");
  const finding = page.getByTestId("connect-diagnosis").getByTestId("doctor-finding");
  await expect(finding).toHaveCount(1);
  await expect(finding).toHaveAttribute("data-kind", "echo");
  await expect(finding).toContainText("echoes its input");
  // Our own refusal of the echoed initialize, echoed back, is not the agent's error.
  await expect(page.getByTestId("prompt-panel")).not.toContainText("Method not found");
  // Stopped by the doctor, not left running.
  await expect(page.getByTestId("agent-status")).toHaveAttribute("data-status", "exited");
});

test("Check on the Profiles page diagnoses each profile on demand", async ({ page }) => {
  await page.goto(url());
  await page.getByTestId("nav-profiles").click();
  const missing = page.locator('[data-testid="profile-check"][data-name="missing"]');
  await missing.getByTestId("check-profile").click();
  await expect(missing.getByTestId("doctor-finding")).toHaveAttribute("data-kind", "not-found");
  const cards = page.locator('[data-testid="profile-check"][data-name="cards"]');
  await cards.getByTestId("check-profile").click();
  await expect(cards.getByTestId("doctor-ok")).toContainText("opened a session");
});

test("an agent configured for a JetBrains IDE is found on this machine and added with one click", async ({ page }) => {
  const file = path.join(process.env.E2E_HOME!, ".jetbrains", "acp.json");
  mkdirSync(path.dirname(file), { recursive: true });
  // A command that is not installed: the profile it becomes is listed, never probed by "Probe all".
  writeFileSync(
    file,
    JSON.stringify({
      agent_servers: {
        "Found Agent": { command: "no-such-found-agent" },
        "Node Agent": { command: process.execPath },
        // Relative to where the IDE unpacked it: against the playground's folder it would run a workspace file.
        Planted: { command: "./codex-acp" },
      },
    }),
  );
  try {
    await page.goto(url());
    await page.getByTestId("nav-profiles").click();
    const found = page.locator('[data-testid="found-agent"][data-name="Found Agent"]');
    await expect(found).toContainText("no-such-found-agent");
    await expect(found.getByTestId("found-resolved")).toHaveText("not found on this machine");
    const node = page.locator('[data-testid="found-agent"][data-name="Node Agent"]');
    await expect(node.getByTestId("found-resolved")).toHaveText(`runs ${process.execPath}`);
    const planted = page.locator('[data-testid="found-agent"][data-name="Planted"]');
    await expect(planted).toContainText("is a relative path");
    await expect(planted.getByTestId("add-found")).toBeDisabled();
    await found.getByTestId("add-found").click();
    await expect(page.getByTestId("found-added")).toContainText("Added as profile Found-Agent");
    await expect(found.getByTestId("found-configured")).toHaveText("configured as Found-Agent");
    await expect(page.locator('[data-testid="profile-row"][data-name="Found-Agent"]')).toBeVisible();
  } finally {
    rmSync(file, { force: true });
  }
});
