/**
 * /api/comparisons (docs/relay-protocol.md#http-api): saved comparisons, their
 * share links, and fresh workspaces for a comparison's two agents. Every route
 * needs the access token but `GET /api/comparisons/:id/shared?token=`, which a
 * comparison's share link opens.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, realpathSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { comparisonInput } from "../lib/compare-format";
import { readJsonBody, sendError, sendJson } from "./http-api";
import { comparisonStoreBeside } from "./comparison-store";
import type { Relay } from "./relay";
import { bearerToken, tokenMatches } from "./security";

const BODY_LIMIT = 256 * 1024;

/** Where a comparison's agents work, under the first workspace root (never inside each other). */
export const COMPARE_WORKSPACES = path.join(".acp-playground", "compare");

/**
 * Two new empty directories, one per side: `cwd` relative to the first root
 * (as agent:start takes it), `paths` absolute (for session/new).
 */
export function makeSideWorkspaces(root: string): { cwd: [string, string]; paths: [string, string] } {
  const base = path.join(root, COMPARE_WORKSPACES, `${Date.now()}-${randomBytes(4).toString("hex")}`);
  const paths = ["a", "b"].map((s) => {
    mkdirSync(path.join(base, s), { recursive: true, mode: 0o700 });
    return realpathSync(path.join(base, s));
  }) as [string, string];
  const real = realpathSync(root);
  return { cwd: paths.map((p) => path.relative(real, p)) as [string, string], paths };
}

export async function handleComparisonApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  relay: Relay,
  token: string,
): Promise<void> {
  const parts = url.pathname.split("/").filter(Boolean).slice(2); // drop "api", "comparisons"
  const method = req.method ?? "GET";
  const store = comparisonStoreBeside(relay.transcripts);

  if (parts.length === 2 && parts[1] === "shared" && method === "GET") {
    const shared = store.shared(parts[0]!, url.searchParams.get("token"));
    return shared ? sendJson(res, 200, shared) : sendError(res, 404, "not_found", "no such shared comparison");
  }
  if (!tokenMatches(bearerToken(req), token)) return sendError(res, 401, "unauthorized", "unauthorized");

  if (parts.length === 0 && method === "GET") return sendJson(res, 200, { comparisons: store.list() });
  if (parts.length === 0 && method === "POST") {
    const body = await readJsonBody(req, comparisonInput, BODY_LIMIT);
    if (!body.ok) return sendError(res, 400, "invalid_payload", body.error);
    const saved = store.save(body.value);
    if ("missing" in saved) return sendError(res, 400, "not_found", `no transcript ${saved.missing}`);
    return sendJson(res, 201, saved);
  }
  if (parts.length === 1 && parts[0] === "workspaces" && method === "POST") {
    const root = relay.info().workspaceRoots[0];
    if (!root) return sendError(res, 409, "bad_cwd", "no workspace root is configured");
    return sendJson(res, 201, makeSideWorkspaces(root));
  }
  const id = parts[0];
  if (id === undefined) return sendError(res, 404, "not_found", `no route: ${method} ${url.pathname}`);
  if (parts.length === 1) {
    const record = store.get(id);
    if (!record) return sendError(res, 404, "not_found", `no comparison ${id.slice(0, 80)}`);
    if (method === "GET") return sendJson(res, 200, record);
    if (method === "DELETE")
      return store.delete(id) ? void res.writeHead(204).end() : sendError(res, 404, "not_found", id);
  }
  if (parts.length === 2 && parts[1] === "share") {
    const record = method === "POST" ? store.share(id) : method === "DELETE" ? store.unshare(id) : undefined;
    if (record) return sendJson(res, 200, record);
    if (method === "POST" || method === "DELETE")
      return sendError(res, 404, "not_found", `no comparison ${id.slice(0, 80)} (or one of its transcripts is gone)`);
  }
  return sendError(res, 404, "not_found", `no route: ${method} ${url.pathname}`);
}
