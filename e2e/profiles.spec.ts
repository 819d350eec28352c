/**
 * The profiles page: availability and versions as the server sees them, the
 * conformance probe against the real Gemini CLI (behind the fake Gemini API),
 * report export and comparison. Everything waits on locators, never on sleeps.
 */
import { readFileSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { url } from "./helpers";
import { sharedPage } from "./shared-page";

test.describe.serial("profiles: availability, versions, probe, export, compare", () => {
  // A probe takes up to two minutes on a loaded machine.
  test.describe.configure({ timeout: 180_000 });
  let page: Page;
  let gemini: Locator;
  let missing: Locator;
  let exported = "";
  sharedPage(
    async (p) => {
      page = p;
      await page.goto(url());
      await page.getByTestId("nav-profiles").click();
      await expect(page).toHaveURL(/\/profiles$/);
      gemini = page.locator('[data-testid="profile-row"][data-name="gemini"]');
      missing = page.locator('[data-testid="profile-row"][data-name="missing"]');
    },
    { failOnPageErrors: true },
  );

  test("availability and versions as the server sees them", async () => {
    await expect(gemini.getByTestId("profile-available")).toHaveText("✓ installed");
    await expect(gemini.getByTestId("profile-version")).toHaveText("0.61.0");
    // An absolute command is not repeated as its resolved path; a bare name shows where it resolves.
    await expect(gemini.getByTestId("profile-resolved")).toHaveCount(0);
    await expect(
      page.locator('[data-testid="profile-row"][data-name="echo"]').getByTestId("profile-resolved"),
    ).toContainText("/sh");

    await expect(missing).toHaveAttribute("data-available", "false");
    await expect(missing.getByTestId("profile-available")).toHaveText(
      /^missing: .*no-such-agent not found on this machine$/,
    );
    await expect(missing.getByTestId("probe-button")).toHaveCount(0);
    await expect(page.locator('[data-testid="replay-profile"][data-name="replay:demo-gemini"]')).toBeVisible();
  });

  test("probe gemini", async () => {
    await gemini.getByTestId("probe-button").click();
    await expect(page.getByTestId("probe-progress")).toContainText("Probing gemini");
    const report = page.getByTestId("probe-report");
    await expect(report).toBeVisible({ timeout: 120_000 });
    await expect(report).toHaveAttribute("data-profile", "gemini");
    const unknown = report.locator('[data-testid="probe-row"][data-check="unknown method"]');
    await expect(unknown).toHaveAttribute("data-outcome", "-32601");
    await expect(unknown).toHaveAttribute("data-conforms", "true");
    await expect(unknown).toContainText("✓");
    const init = report.locator('[data-testid="probe-row"][data-check="initialize with protocolVersion 1"]');
    await expect(init).toHaveAttribute("data-outcome", "answered");
    expect(await report.getByTestId("probe-row").count()).toBeGreaterThan(10);
    // The result shows beside the button pressed, its counts the report's own.
    const result = gemini.getByTestId("probe-result");
    await expect(result).toHaveAttribute("data-state", "not conformant");
    const counts = (await result.locator("span").nth(1).textContent())!;
    expect(counts).toMatch(/^\d+ pass · \d+ fail/);
    await expect(report.getByTestId("probe-counts")).toContainText(`requirements that decide: ${counts}`);
  });

  test("the verdict, with each requirement's id, tier and citation", async () => {
    const report = page.getByTestId("probe-report");
    // Gemini advertises loadSession and gets session/load of its own session wrong: it fails the load
    // (ACP-LOAD-001), or, in another minute than the session's, loads it and replays the conversation
    // after its answer (test/integration/cli.test.ts, geminiLoadMinutes). PG-LOAD-002 fails either way.
    const verdict = report.getByTestId("probe-verdict");
    await expect(verdict).toHaveAttribute("data-verdict", "NOT CONFORMANT");
    await expect(verdict).toContainText("PG-LOAD-002 fail");
    const v1 = report.locator('[data-testid="conformance-part"][data-variant="v1"]');
    await expect(v1).toContainText("NOT CONFORMANT");
    const load = v1.locator('[data-testid="requirement-row"][data-id="PG-LOAD-002"]');
    await expect(load).toHaveAttribute("data-tier", "CAPABILITY");
    await expect(load).toHaveAttribute("data-status", "fail");
    await expect(load).toContainText("docs/protocol/v1/session-setup.mdx#loading-a-session");
    // The failure's frames link into the transcript the probe recorded.
    // Each failure's frame opens the probe's recording at that frame (#seq=N).
    await expect(load.getByTestId("requirement-frames").first()).toHaveAttribute(
      "href",
      /^\/transcripts\/[^#]+#seq=\d+$/,
    );
    // Silence after a malformed line is an observation, never a failure.
    const parse = v1.locator('[data-testid="requirement-row"][data-id="ACP-INFO-PARSE-001"]');
    await expect(parse).toHaveAttribute("data-tier", "INFORMATIONAL");
    await expect(parse).toContainText("ACP v1 requires no answer");
    const extra = v1.locator('[data-testid="requirement-row"][data-id="ACP-SCHEMA-002"]');
    await expect(extra).toHaveAttribute("data-tier", "ADVISORY");
    await expect(extra).toContainText("session/new: models");
    // v1 unstable is reported apart, session/set_model among it as removed from the spec.
    const unstable = report.locator('[data-testid="conformance-part"][data-variant="v1 unstable"]');
    await expect(unstable).toContainText("does not decide the verdict");
  });

  test("export JSON and Markdown", async () => {
    const json = page.waitForEvent("download");
    await page.getByTestId("export-json").click();
    const file = await json;
    expect(file.suggestedFilename()).toMatch(/^probe-gemini-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.json$/);
    exported = readFileSync(await file.path(), "utf8");
    const report = JSON.parse(exported);
    expect(report.profile).toBe("gemini");
    expect(report.rows.find((r: { check: string }) => r.check === "unknown method")).toMatchObject({
      outcome: "-32601",
      conforms: true,
      requirements: ["ACP-JSONRPC-004"],
    });
    expect(report.conformance.verdict).toBe("NOT CONFORMANT");

    const md = page.waitForEvent("download");
    await page.getByTestId("export-md").click();
    const mdFile = await md;
    expect(mdFile.suggestedFilename()).toMatch(/\.md$/);
    const markdown = readFileSync(await mdFile.path(), "utf8");
    expect(markdown).toContain("| ✓ | unknown method | `acp_playground/no_such_method` | ACP-JSONRPC-004 | -32601 |");
    expect(markdown).toMatch(
      /\*\*VERDICT: NOT CONFORMANT \((ACP-LOAD-001 fail, )?PG-LOAD-002 fail, ACP-MODES-002 fail\)\*\*/,
    );
    expect(markdown).toMatch(/\| ✗ \| PG-LOAD-002 \| CAPABILITY \| fail \|/);
  });

  test("compare with an uploaded report; differing rows are highlighted", async () => {
    const report = JSON.parse(exported);
    // The same report with one check changed, as another agent might answer it.
    report.rows.find((r: { check: string }) => r.check === "unknown method").outcome = "error";
    await page
      .getByTestId("compare-upload")
      .setInputFiles({ name: "other.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(report)) });
    await expect(page.getByTestId("compare-table")).toBeVisible();
    await expect(page.getByTestId("compare-summary")).toHaveText(/^1 of \d+ checks differ$/);
    const differing = page.locator('[data-testid="compare-row"][data-same="false"]');
    await expect(differing).toHaveCount(1);
    await expect(differing).toContainText("unknown method");

    await page
      .getByTestId("compare-upload")
      .setInputFiles({ name: "junk.json", mimeType: "application/json", buffer: Buffer.from('{"rows": 1}') });
    await expect(page.getByTestId("compare-upload-error")).toContainText(
      "junk.json is not a probe report: profile must be a string",
    );
    await expect(differing.getByTestId("compare-differs")).toHaveText("differs: outcome");
  });

  test("probe selected profiles into the protocol matrix, export it", async () => {
    await expect(page.getByTestId("probe-selected")).toBeDisabled();
    await gemini.getByTestId("profile-select").check();
    await expect(missing.getByTestId("profile-select")).toBeDisabled();
    await page.getByTestId("probe-selected").click();
    const matrix = page.getByTestId("probe-matrix");
    await expect(matrix).toBeVisible({ timeout: 120_000 });
    await expect(matrix.locator("thead")).toContainText("gemini (gemini-cli 0.61.0)");
    await expect(matrix.getByTestId("matrix-row").filter({ hasText: "protocol version" })).toContainText("1");
    await expect(matrix.locator('[data-testid="matrix-row"][data-label="verdict"]')).toContainText("NOT CONFORMANT");
    await expect(matrix.locator('[data-testid="matrix-row"][data-label="failing requirements"]')).toContainText(
      "PG-LOAD-002 (CAPABILITY)",
    );
    const md = page.waitForEvent("download");
    await page.getByTestId("matrix-export-md").click();
    const text = readFileSync(await (await md).path(), "utf8");
    expect(text.split("\n")[0]).toBe("| | gemini (gemini-cli 0.61.0) |");
  });
});
