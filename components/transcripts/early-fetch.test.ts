/**
 * The viewer's early transcript GET: the inline script runs as the page would
 * run it (its globals are in-memory stand-ins), and the viewer takes its
 * response only for the same transcript and token, once.
 */
import { afterEach, describe, expect, it } from "vitest";
import { takeAccessToken, TOKEN_KEY } from "../page-storage";
import { earlyFetchScript, fetchTranscript, takeEarlyFetch } from "./early-fetch";

const URL_OF_ABC = "/api/transcripts/abc";

/** What the page's fetch was asked, and the responses it gave. */
let fetched: Array<{ url: string; init: RequestInit; res: Promise<Response> }>;
let storage: Map<string, string>;

/** Opens a page at `href` in a tab whose storage holds `stored`, and runs the inline script in it. */
function loadPage(href: string, script: string, stored: Record<string, string> = {}) {
  fetched = [];
  storage = new Map(Object.entries(stored));
  let address = href;
  const location = {
    get href() {
      return address;
    },
  };
  const window: Record<string, unknown> = {
    location,
    history: {
      state: null,
      replaceState: (_s: unknown, _u: string, url: string) => (address = new URL(url, address).href),
    },
  };
  const sessionStorage = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, String(v)),
    removeItem: (k: string) => storage.delete(k),
  };
  const fetch = (url: string, init: RequestInit) => {
    const res = Promise.resolve(new Response(`{"url":${JSON.stringify(url)}}`));
    fetched.push({ url, init, res });
    return res;
  };
  Object.assign(globalThis, { window, sessionStorage });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the inline script as the page's HTML would
  new Function("location", "sessionStorage", "fetch", "window", script)(location, sessionStorage, fetch, window);
}

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
  delete (globalThis as { sessionStorage?: unknown }).sessionStorage;
});

describe("the viewer's early transcript fetch", () => {
  it("starts with a link's token, and the viewer takes that very response, once", () => {
    loadPage("http://localhost:3000/transcripts/abc?token=t0k", earlyFetchScript(URL_OF_ABC));
    expect(fetched.map((f) => [f.url, f.init])).toEqual([
      [URL_OF_ABC, { headers: { authorization: "Bearer t0k" }, cache: "no-store" }],
    ]);
    // The viewer's token is the one the script used, so it takes the response already arriving.
    const token = takeAccessToken();
    expect(token).toBe("t0k");
    expect(takeEarlyFetch(URL_OF_ABC, token)).toBe(fetched[0]!.res);
    // A second viewer of the page fetches anew.
    expect(takeEarlyFetch(URL_OF_ABC, token)).toBeUndefined();
  });

  it("after a reload it uses the tab's stored token; without any token it fetches nothing", () => {
    loadPage("http://localhost:3000/transcripts/abc", earlyFetchScript(URL_OF_ABC), { [TOKEN_KEY]: "kept" });
    expect(fetched[0]!.init.headers).toEqual({ authorization: "Bearer kept" });
    expect(takeEarlyFetch(URL_OF_ABC, takeAccessToken())).toBe(fetched[0]!.res);

    loadPage("http://localhost:3000/transcripts/abc", earlyFetchScript(URL_OF_ABC));
    expect(fetched).toEqual([]);
    expect(takeEarlyFetch(URL_OF_ABC, undefined)).toBeUndefined();
  });

  it("a response for another transcript or another token is not taken, and waits for its own viewer", () => {
    loadPage("http://localhost:3000/transcripts/abc?token=t0k", earlyFetchScript(URL_OF_ABC));
    expect(takeEarlyFetch("/api/transcripts/other", "t0k")).toBeUndefined();
    expect(takeEarlyFetch(URL_OF_ABC, "another")).toBeUndefined();
    expect(takeEarlyFetch(URL_OF_ABC, undefined)).toBeUndefined();
    expect(takeEarlyFetch(URL_OF_ABC, "t0k")).toBe(fetched[0]!.res);
  });

  it("a url that would end the script element stays inside it, and is fetched as it is", async () => {
    const url = "/api/transcripts/</script><script>alert(1)</script>";
    const script = earlyFetchScript(url);
    expect(script).not.toContain("</");
    loadPage("http://localhost:3000/?token=t0k", script);
    expect(fetched.map((f) => f.url)).toEqual([url]);
    expect(await (await takeEarlyFetch(url, "t0k")!).json()).toEqual({ url });
  });

  it("the viewer's own fetch sends the token when there is one, and never a cached copy", async () => {
    const asked: Array<[string, RequestInit]> = [];
    const pageFetch = globalThis.fetch;
    globalThis.fetch = (url, init) => {
      asked.push([url as string, init!]);
      return Promise.resolve(new Response("{}"));
    };
    try {
      const abort = new AbortController();
      await fetchTranscript(URL_OF_ABC, "t0k", abort.signal);
      await fetchTranscript(URL_OF_ABC, undefined);
    } finally {
      globalThis.fetch = pageFetch;
    }
    expect(asked[0]![1]).toMatchObject({ headers: { authorization: "Bearer t0k" }, cache: "no-store" });
    expect(asked[0]![1].signal).toBeInstanceOf(AbortSignal);
    expect(asked[1]![1]).toMatchObject({ headers: {}, cache: "no-store" });
  });
});
