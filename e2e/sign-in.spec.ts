/**
 * Links that open anywhere: a browser that opened the printed URL once is signed in (an
 * HttpOnly SameSite=Strict cookie), so a copied link without a token opens in its other tabs;
 * a new browser profile opens it on a page that says where the token is and takes it in a form,
 * never in an address. No URL the browsers visit carries the token.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { url } from "./helpers";

const origin = () => process.env.E2E_ORIGIN!;
const token = () => new URL(url()).searchParams.get("token")!;
const LINK = () => `${origin()}/transcripts/demo-gemini#seq=6`;

/** Every address the page's main frame showed, as history would keep them. */
function addresses(page: Page): string[] {
  const seen: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) seen.push(frame.url());
  });
  return seen;
}

test("a link copied without the token opens in another tab once signed in, and in a new browser after signing in there", async ({
  browser,
  page,
}) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(url());
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  // The printed URL signed this browser in: an HttpOnly cookie, sent only to /api/sign-in, same site only.
  await expect
    .poll(async () => (await page.context().cookies()).find((c) => c.name === "acp_playground_signin"))
    .toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/api/sign-in" });
  await page.getByTestId("copy-link").click();
  await expect(page.getByTestId("copy-link")).toHaveText("Link copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).not.toContain("token");

  // Another tab of the same browser (its own sessionStorage): the frame link opens, no token asked.
  const tab = await page.context().newPage();
  const tabSeen = addresses(tab);
  await tab.goto(LINK());
  await expect(tab.locator('[data-testid="frame-row"][data-seq="6"]')).toHaveAttribute("aria-selected", "true");
  expect(tabSeen.filter((u) => u.includes("token"))).toEqual([]);
  await tab.close();

  // A new browser profile: told where the token is, for a server started with npm start; signs in by a form.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  const seen = addresses(other);
  await other.goto(LINK());
  await expect(other.getByTestId("token-message")).toContainText("No access token");
  await expect(other.getByTestId("token-where")).toContainText("npm start");
  const { violations } = await new AxeBuilder({ page: other }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await other.getByTestId("sign-in-token").fill("not-the-token");
  await other.getByTestId("sign-in-submit").click();
  await expect(other.getByTestId("sign-in-error")).toContainText("not this server's access token");
  await other.getByTestId("sign-in-token").fill(token());
  await other.getByTestId("sign-in-submit").click();
  await expect(other.locator('[data-testid="frame-row"][data-seq="6"]')).toHaveAttribute("aria-selected", "true");
  // Signed in for good: a new tab of that browser opens the playground itself without a token.
  const second = await fresh.newPage();
  await second.goto(origin());
  await expect(second.getByTestId("connection")).toHaveAttribute("data-state", "connected");
  expect([...seen, second.url()].filter((u) => u.includes("token"))).toEqual([]);
  await fresh.close();
});

test("another site can neither sign a browser in nor read the token", async () => {
  const res = await fetch(`${origin()}/api/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: "https://evil.example" },
    body: JSON.stringify({ token: token() }),
  });
  expect(res.status).toBe(403);
  expect(res.headers.get("set-cookie")).toBeNull();
  const read = await fetch(`${origin()}/api/sign-in`, { headers: { origin: "https://evil.example" } });
  expect(read.status).toBe(403);
});
