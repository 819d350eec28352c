/**
 * What the pages keep in the tab's sessionStorage across a reload: the access
 * token a link brought (and hid from the address bar), and the profile a link
 * or a Replay button asked the playground to preselect, taken once.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  preselectProfile,
  rememberProfileParam,
  takeAccessToken,
  takePreselectedProfile,
  TOKEN_KEY,
} from "./page-storage";

/** The tab's storage: it outlives the documents loaded in the tab. */
let storage = new Map<string, string>();
/** What the address bar shows, and history.state, as replaceState leaves them. */
let page: { href: string; state: unknown };

/** Loads a document in the tab (a fresh window), as a link (`navigate`) or a reload does. */
function open(href: string, how: "navigate" | "reload" = "navigate"): void {
  page = { href, state: { key: "k1" } };
  (globalThis as { window?: unknown }).window = {
    location: {
      get href() {
        return page.href;
      },
    },
    history: {
      get state() {
        return page.state;
      },
      replaceState: (state: unknown, _unused: string, url: string) => {
        page = { href: new URL(url, page.href).href, state };
      },
    },
  };
  (globalThis as { sessionStorage?: unknown }).sessionStorage = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, String(v)),
    removeItem: (k: string) => storage.delete(k),
  };
  vi.spyOn(performance, "getEntriesByType").mockReturnValue([{ type: how } as unknown as PerformanceEntry]);
}

afterEach(() => {
  vi.restoreAllMocks();
  storage = new Map();
  delete (globalThis as { window?: unknown }).window;
  delete (globalThis as { sessionStorage?: unknown }).sessionStorage;
});

describe("the access token", () => {
  it("a link's ?token= is kept for the tab and hidden from the address bar, the rest of it intact", () => {
    open("http://localhost:3000/transcripts/abc?token=s3cret&frame=12#f12");
    expect(takeAccessToken()).toBe("s3cret");
    expect(page).toEqual({ href: "http://localhost:3000/transcripts/abc?frame=12#f12", state: { key: "k1" } });
    expect(storage.get(TOKEN_KEY)).toBe("s3cret");
  });

  it("a reload, or another page of the tab, finds it in the tab's storage; a new link's token replaces it", () => {
    open("http://localhost:3000/?token=first");
    takeAccessToken();
    open("http://localhost:3000/", "reload");
    expect(takeAccessToken()).toBe("first");
    open("http://localhost:3000/compare");
    expect(takeAccessToken()).toBe("first");
    open("http://localhost:3000/?token=second");
    expect(takeAccessToken()).toBe("second");
    open("http://localhost:3000/", "reload");
    expect(takeAccessToken()).toBe("second");
  });

  it("without a link's token or a stored one there is none", () => {
    open("http://localhost:3000/?token=");
    expect(takeAccessToken()).toBeUndefined();
  });
});

describe("the profile a link preselects", () => {
  it("the playground takes a link's ?profile= once; a later visit in the same document does not take it again", () => {
    open("http://localhost:3000/?profile=replay:abc");
    expect(takePreselectedProfile()).toBe("replay:abc");
    expect(takePreselectedProfile()).toBeUndefined();
    // The nav bar looks again on every page of the document: the link was followed already.
    rememberProfileParam();
    expect(takePreselectedProfile()).toBeUndefined();
  });

  it("a reload of the link's page does not preselect it again", () => {
    open("http://localhost:3000/?profile=replay:abc");
    expect(takePreselectedProfile()).toBe("replay:abc");
    open("http://localhost:3000/?profile=replay:abc", "reload");
    expect(takePreselectedProfile()).toBeUndefined();
  });

  it("a link to another page is remembered for the playground the user goes to next", () => {
    open("http://localhost:3000/transcripts?profile=replay:abc");
    rememberProfileParam();
    open("http://localhost:3000/");
    expect(takePreselectedProfile()).toBe("replay:abc");
  });

  it("a Replay button's profile is taken once; an empty one is none", () => {
    open("http://localhost:3000/transcripts");
    preselectProfile("replay:xyz");
    expect(takePreselectedProfile()).toBe("replay:xyz");
    expect(takePreselectedProfile()).toBeUndefined();
    open("http://localhost:3000/?profile=");
    expect(takePreselectedProfile()).toBeUndefined();
  });
});
