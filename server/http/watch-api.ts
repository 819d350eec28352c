/**
 * POST /api/watch and DELETE /api/watch/:token (docs/relay-protocol.md#watch-links):
 * the owner's side of watch links; the access token is checked before.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { watchBody } from "../../lib/contracts/http-api";
import { readJsonBody, sendError, sendJson } from "../wire/http-io";
import type { Relay } from "./relay";
import { overTls } from "./sign-in";

export async function handleWatchApi(
  req: IncomingMessage,
  res: ServerResponse,
  parts: string[],
  relay: Relay,
  by: string | undefined,
): Promise<void> {
  const method = req.method ?? "GET";
  if (parts.length === 1 && method === "POST") {
    const read = await readJsonBody(req, watchBody, 4 * 1024);
    if (!read.ok) return sendError(res, 400, "invalid_payload", read.error);
    const made = relay.watch.create(read.value.clientId, by);
    if (!made.ok) return sendError(res, made.status, made.error.code, made.error.message);
    // Handed out once a watcher landing on another instance is let in.
    await relay.watch.listed(made.token);
    // The page's own origin (its Origin, which the guard checked, else the Host it let through, over
    // TLS when a proxy says so): the link works wherever this page does, and behind a TLS proxy its
    // token never travels in clear.
    const origin = req.headers.origin ?? `${overTls(req) ? "https" : "http"}://${req.headers.host ?? "127.0.0.1"}`;
    const url = `${origin}/watch/${made.token}`;
    return sendJson(res, 201, { url, token: made.token });
  }
  if (parts.length === 2 && method === "DELETE") {
    if (!relay.watch.endAs(parts[1]!, by)) return sendError(res, 404, "not_found", "no such watch link");
    // Answered once a watcher landing on another instance is refused.
    await relay.watch.unlisted(parts[1]!);
    return void res.writeHead(204).end();
  }
  return sendError(res, 404, "not_found", `no route: ${method} /api/${parts.join("/")}`);
}
