/**
 * Signing a browser in: the token POSTed as JSON becomes an HttpOnly SameSite=Strict cookie
 * scoped to /api/sign-in, which gives the token back to this origin's pages and authorises
 * nothing else; a cross-site page can neither sign a browser in nor read the token.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startTestRelay, type TestRelay } from "../../test/relay-harness";
import { SIGN_IN_COOKIE, signInValue } from "./sign-in";

let relay: TestRelay | undefined;
afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

const TOKEN = "test-token";

async function start(): Promise<string> {
  relay = await startTestRelay();
  return relay.url;
}

const signIn = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("POST /api/sign-in", () => {
  it("exchanges the token for a cookie that scripts cannot read and other sites do not send", async () => {
    const url = await start();
    const res = await signIn(url, { token: TOKEN });
    expect(res.status).toBe(204);
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(new RegExp(`^${SIGN_IN_COOKIE}=`));
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).toContain("Path=/api/sign-in");
    // Derived from the token, not the token itself; over plain http it cannot be Secure.
    expect(cookie).not.toContain(TOKEN);
    expect(cookie).not.toContain("Secure");
    // Behind a TLS proxy it is.
    const tls = await signIn(url, { token: TOKEN }, { "x-forwarded-proto": "https" });
    expect(tls.headers.get("set-cookie")).toContain("Secure");
  });

  it("refuses a wrong token, a form post and another site's page, setting nothing", async () => {
    const url = await start();
    const wrong = await signIn(url, { token: "guess" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const form = await fetch(`${url}/api/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${TOKEN}`,
    });
    expect(form.status).toBe(415);
    expect(form.headers.get("set-cookie")).toBeNull();
    const crossSite = await signIn(url, { token: TOKEN }, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get("set-cookie")).toBeNull();
    const extra = await signIn(url, { token: TOKEN, admin: true });
    expect(extra.status).toBe(400);
  });
});

describe("GET /api/sign-in", () => {
  it("gives the token only to a signed-in browser, and says how the server was started", async () => {
    const url = await start();
    const anonymous = await fetch(`${url}/api/sign-in`);
    expect(await anonymous.json()).toEqual({ signedIn: false, start: "npm-start" });
    const cookie = `${SIGN_IN_COOKIE}=${signInValue(TOKEN)}`;
    const signedIn = await fetch(`${url}/api/sign-in`, { headers: { cookie } });
    expect(await signedIn.json()).toEqual({ signedIn: true, token: TOKEN, start: "npm-start" });
    expect(signedIn.headers.get("cache-control")).toBe("no-store");
    // A cookie made from another token (a restart with a new one) signs nothing in.
    const stale = await fetch(`${url}/api/sign-in`, { headers: { cookie: `${SIGN_IN_COOKIE}=${signInValue("old")}` } });
    expect(await stale.json()).toMatchObject({ signedIn: false });
  });

  it("the cookie authorises no other route", async () => {
    const url = await start();
    const cookie = `${SIGN_IN_COOKIE}=${signInValue(TOKEN)}`;
    expect((await fetch(`${url}/api/transcripts`, { headers: { cookie } })).status).toBe(401);
  });

  it("DELETE signs the browser out", async () => {
    const url = await start();
    const res = await fetch(`${url}/api/sign-in`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toMatch(new RegExp(`^${SIGN_IN_COOKIE}=;.*Max-Age=0`));
  });
});

describe("named tokens (a team server's config file)", () => {
  it("a person's token signs their browser in with their token; removed from the file, it no longer does", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "acp-sign-in-"));
    try {
      const configFile = path.join(dir, "config.json");
      const alice = "alice-token-0123456789";
      writeFileSync(configFile, JSON.stringify({ tokens: { alice } }));
      relay = await startTestRelay({ configFile, tokens: { alice } });
      const res = await signIn(relay.url, { token: alice });
      expect(res.status).toBe(204);
      const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
      expect(cookie).toBe(`${SIGN_IN_COOKIE}=${signInValue(alice)}`);
      const state = await fetch(`${relay.url}/api/sign-in`, { headers: { cookie } });
      expect(await state.json()).toEqual({ signedIn: true, token: alice, start: "npm-start" });
      writeFileSync(configFile, JSON.stringify({ tokens: {} }));
      const revoked = await fetch(`${relay.url}/api/sign-in`, { headers: { cookie } });
      expect(await revoked.json()).toMatchObject({ signedIn: false });
      expect((await signIn(relay.url, { token: alice })).status).toBe(401);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
