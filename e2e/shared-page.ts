/**
 * One page shared by the tests of a `test.describe.serial`: a long journey is
 * set up once (an agent started, frames sent) and each of its steps is a test
 * of its own, so a failure names the step and the steps after it are skipped.
 */
import { expect, test, type BrowserContextOptions, type Page } from "@playwright/test";

export interface SharedPageOptions {
  /** Opens the Frames view (the page opens on the Session view otherwise). */
  framesView?: boolean;
  /** Lists every frame, chunks unfolded (specs that count raw frames). */
  everyFrame?: boolean;
  /** A page error fails the test it happened in. */
  failOnPageErrors?: boolean;
  /** So does a console error (the browser's own favicon request aside). */
  failOnConsoleErrors?: boolean;
  context?: BrowserContextOptions;
  /** For beforeAll, which starts the agent. */
  setupTimeout?: number;
}

/** Opens the Frames view on every load of this page (it opens on the Session view otherwise). */
export const framesView = (page: Page) =>
  page.addInitScript(() => localStorage.setItem("acp-playground.view", "frames"));

/** Lists every frame, chunks unfolded, on every load of this page (chunks of one message fold otherwise). */
export const everyFrame = (page: Page) =>
  page.addInitScript(() => localStorage.setItem("acp-playground.fold-chunks", "off"));

/** Registers the hooks; the returned function gives the page inside the tests. */
export function sharedPage(setup: (page: Page) => Promise<void>, opts: SharedPageOptions = {}): () => Page {
  let page: Page | undefined;
  const errors: string[] = [];
  test.beforeAll(async ({ browser }, testInfo) => {
    testInfo.setTimeout(opts.setupTimeout ?? 180_000);
    // The config's `use` applies to fixtures' contexts only: keep its viewport here too.
    const context = await browser.newContext({ viewport: testInfo.project.use.viewport, ...opts.context });
    page = await context.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    if (opts.failOnConsoleErrors)
      page.on(
        "console",
        (m) => m.type() === "error" && !m.location().url.endsWith("/favicon.ico") && errors.push(m.text()),
      );
    if (opts.framesView) await framesView(page);
    if (opts.everyFrame) await everyFrame(page);
    await setup(page);
  });
  if (opts.failOnPageErrors || opts.failOnConsoleErrors) test.afterEach(() => expect(errors.splice(0)).toEqual([]));
  test.afterAll(async () => page?.context().close());
  return () => page!;
}
