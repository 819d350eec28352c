/**
 * Signing a browser in once (docs/relay-protocol.md#signing-a-browser-in): the access token,
 * POSTed as JSON, is exchanged for an HttpOnly SameSite=Strict cookie, so that a copied link
 * (`/transcripts/<id>#seq=N`, no token in it) opens in every tab of that browser, and no token
 * sits in a URL that history or a bookmark keeps. The cookie only lets this origin's pages ask
 * for the token again (GET); every other route still wants the Bearer header, so a cookie a
 * cross-site request might carry authorises nothing that changes state.
 */
import { createHmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { signInBody, type SignInState, type ServerStart } from "../../lib/contracts/http-api";
import { readJsonBody, sendError, sendJson } from "../wire/http-io";
import { tokenMatches } from "../tokens";

export const SIGN_IN_COOKIE = "acp_playground_signin";
/** A browser stays signed in for 30 days, or until the token changes (a restart without ACP_PLAYGROUND_TOKEN). */
const MAX_AGE_S = 30 * 24 * 3600;

/** The cookie's value: derived from the token, never the token itself; a new token voids it. */
export function signInValue(token: string): string {
  return createHmac("sha256", token).update("acp-playground browser sign-in v1").digest("base64url");
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Whether the request comes over TLS (directly or through a proxy that says so): the cookie is then Secure. */
export const overTls = (req: IncomingMessage) =>
  (req.socket as { encrypted?: boolean }).encrypted === true || req.headers["x-forwarded-proto"] === "https";

function setCookie(res: ServerResponse, req: IncomingMessage, value: string, maxAge: number): void {
  const flags = ["HttpOnly", "SameSite=Strict", "Path=/api/sign-in", `Max-Age=${maxAge}`];
  if (overTls(req)) flags.push("Secure");
  res.setHeader("set-cookie", `${SIGN_IN_COOKIE}=${value}; ${flags.join("; ")}`);
}

/**
 * Routes under /api/sign-in; false for any other path. The Host and Origin checks
 * (server/http/security.ts) ran before: a cross-site page's POST is refused there.
 */
export async function handleSignIn(
  req: IncomingMessage,
  res: ServerResponse,
  parts: string[],
  token: string,
  start: ServerStart,
  /** A team server's named tokens as they are now (server/http/identities.ts): each signs its person in. */
  named: () => readonly string[] = () => [],
): Promise<boolean> {
  if (parts[0] !== "sign-in" || parts.length !== 1) return false;
  const method = req.method ?? "GET";
  const tokens = () => [token, ...named()];
  if (method === "GET") {
    const cookie = cookieOf(req, SIGN_IN_COOKIE);
    // A revoked named token's cookie matches nothing any more.
    const mine = tokens().find((t) => tokenMatches(cookie, signInValue(t)));
    const body: SignInState = mine ? { signedIn: true, token: mine, start } : { signedIn: false, start };
    sendJson(res, 200, body);
    return true;
  }
  if (method === "POST") {
    // A form on another site cannot send JSON without a preflight, which this server never grants.
    if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
      sendError(res, 415, "unsupported_media_type", "send the token as JSON: { token }");
      return true;
    }
    const read = await readJsonBody(req, signInBody, 4096);
    if (!read.ok) {
      sendError(res, 400, "invalid_payload", read.error);
      return true;
    }
    const given = tokens().find((t) => tokenMatches(read.value.token, t));
    if (!given) {
      sendError(res, 401, "unauthorized", "that is not this server's access token");
      return true;
    }
    setCookie(res, req, signInValue(given), MAX_AGE_S);
    res.writeHead(204, { "cache-control": "no-store" }).end();
    return true;
  }
  if (method === "DELETE") {
    setCookie(res, req, "", 0);
    res.writeHead(204, { "cache-control": "no-store" }).end();
    return true;
  }
  sendError(res, 405, "method_not_allowed", `${method} /api/sign-in`);
  return true;
}
