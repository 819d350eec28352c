/**
 * The relay's trust boundary, in small named checks: Host (DNS
 * rebinding) and Origin (cross-site pages). A refused request spawns nothing.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTNAMES.has(host) || /^127(\.\d{1,3}){3}$/.test(host) || host.endsWith(".localhost");
}

/** Host name of a Host header, without its port; undefined when malformed. */
export function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Bound to loopback, only loopback names are accepted (defeats DNS rebinding). */
export function hostAllowed(hostHeader: string | undefined, bindHost: string): boolean {
  const hostname = hostnameOf(hostHeader);
  if (!hostname) return false;
  if (isLoopbackHost(bindHost)) return isLoopbackHost(hostname);
  return true;
}

/**
 * Browsers send Origin on every cross-origin request, so its absence means a
 * same-origin GET or a non-browser client, both of which still need the token.
 */
export function originAllowed(origin: string | undefined, hostHeader: string | undefined, allowed: string[]): boolean {
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && url.host === hostHeader?.toLowerCase();
  } catch {
    return false;
  }
}

export interface GuardConfig {
  host: string;
  allowedOrigins: string[];
}

/** Host and Origin checks for any HTTP or WebSocket request; returns why it is refused. */
export function refuseRequest(req: IncomingMessage, config: GuardConfig): string | undefined {
  if (!hostAllowed(req.headers.host, config.host)) return "forbidden host";
  if (!originAllowed(req.headers.origin, req.headers.host, config.allowedOrigins)) return "forbidden origin";
  return undefined;
}

/** Bearer token from an API request's Authorization header. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const match = header && /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : undefined;
}

/**
 * The Content-Security-Policy of every page: scripts only from this origin and
 * Next's own inline scripts, which carry the per-request nonce; nothing from
 * any other origin. Inline style attributes stay allowed (React sets them; they
 * cannot run code). Development adds 'unsafe-eval', which React's dev build needs.
 */
export function contentSecurityPolicy(dev = false): { nonce: string; policy: string } {
  const nonce = randomBytes(18).toString("base64");
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return { nonce, policy };
}
