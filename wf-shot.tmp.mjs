import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const ctx = await browser.newContext({ offline: true, viewport: { width: 1300, height: 800 } });
const page = await ctx.newPage();
const reqs = [];
page.on("request", (r) => reqs.push(r.url().slice(0, 80)));
page.on("console", (m) => console.log("console:", m.type(), m.text().slice(0, 300)));
page.on("pageerror", (e) => console.log("pageerror:", e.message));
await page.goto("file://" + process.argv[2]);
await page.waitForTimeout(3000);
await page.screenshot({ path: "/tmp/wf-shot1.png" });
const wf = page.getByTestId("view-waterfall");
if (await wf.count()) { await wf.click(); await page.waitForTimeout(1000); await page.screenshot({ path: "/tmp/wf-shot2.png" }); }
console.log(reqs);
await browser.close();
