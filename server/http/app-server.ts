/**
 * The one HTTP server: Host/Origin guard for every request, the token-protected
 * JSON API under /api/, Next.js for everything else, Socket.IO on the side.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { ServerConfig } from "../config";
import { createRelay, type Relay } from "./relay";
import { handleApi } from "./http-api";
import { sendJson } from "../wire/http-io";
import { INTERNAL_ERROR } from "../relay-failure";
import { contentSecurityPolicy, refuseRequest } from "./security";
import type { ServerStart } from "../../lib/contracts/http-api";

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface AppServer {
  http: Server;
  relay: Relay;
  close(): Promise<void>;
}

/** `start`: how it was started, for the words of a page without a token (server/http/sign-in.ts). */
export function createAppServer(
  config: ServerConfig,
  pageHandler?: RequestHandler,
  start: Exclude<ServerStart, "team"> = "npm-start",
): AppServer {
  let relay: Relay | undefined;
  const http = createServer((req, res) => {
    const refused = refuseRequest(req, config);
    if (refused) return sendJson(res, 403, { error: { code: "forbidden", message: refused } });
    const url = new URL(req.url ?? "/", "http://placeholder");
    if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
      handleApi(req, res, url, relay!, config.token, start).catch((err: Error) => {
        // What failed is the operator's to read, not the asker's: a database's address, a path, a
        // library's words (a share link's route answers anyone).
        console.error(`${req.method ?? "GET"} ${url.pathname.slice(0, 200)}: ${err.stack ?? err.message}`);
        if (!res.headersSent) sendJson(res, 500, { error: { code: "internal", message: INTERNAL_ERROR } });
        else res.destroy();
      });
      return;
    }
    // Next reads the nonce from the request's policy and puts it on the scripts it renders.
    const { policy } = contentSecurityPolicy(process.env.NODE_ENV === "development");
    req.headers["content-security-policy"] = policy;
    res.setHeader("Content-Security-Policy", policy);
    if (!pageHandler) return sendJson(res, 404, { error: { code: "not_found", message: "no pages in this server" } });
    void pageHandler(req, res);
  });
  relay = createRelay(http, config);
  let closing: Promise<void> | undefined;
  return {
    http,
    relay,
    close() {
      closing ??= (async () => {
        await relay.close();
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      })();
      return closing;
    },
  };
}

/** SIGINT / SIGTERM: stop every agent (whole process groups), then exit. */
export function exitOnSignals(server: AppServer): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: stopping agents...`);
    server.close().then(
      () => process.exit(0),
      (err: Error) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
