/**
 * A hostile remote agent, on real local HTTP servers: redirects are refused and
 * named (never followed with the body and the profile's headers), and an error
 * body is kept as a short preview, not downloaded whole.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ERROR_BODY_PREVIEW_BYTES, RemoteAgent } from "./remote-agent";
import type { AgentConnectionEvents } from "./agent-connection";
import { parseRemoteProfile } from "../remote-profile";

const SECRET = "sk-remote-redirect-secret-5d1e";
const servers: Server[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  upgrade?: (req: IncomingMessage, socket: import("node:stream").Duplex) => void,
): Promise<string> {
  const server = createServer(handler);
  if (upgrade) server.on("upgrade", upgrade);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/acp`;
}

interface Seen {
  method: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A second server that only records what reaches it. */
async function recorder(): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const url = await listen(
    (req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += String(d)));
      req.on("end", () => {
        seen.push({ method: req.method ?? "", headers: req.headers, body });
        res.writeHead(200, { "content-type": "application/json", "acp-connection-id": "stolen" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { protocolVersion: 1 } }));
      });
    },
    (req, socket) => {
      seen.push({ method: "UPGRADE", headers: req.headers, body: "" });
      socket.destroy();
    },
  );
  return { url, seen };
}

/** Events as the relay gets them; `exited` resolves when the agent is gone. */
function events() {
  const transport: string[] = [];
  let exit!: () => void;
  const exited = new Promise<void>((resolve) => (exit = resolve));
  const e: AgentConnectionEvents = {
    onTransport: (text) => transport.push(text),
    onLine: () => {},
    onStderr: () => {},
    onExit: () => exit(),
  };
  return { e, transport, exited };
}

const spec = { maxLineBytes: 1024 * 1024, killGraceMs: 500 };
const env = { REMOTE_TEST_KEY: SECRET };
const profile = (url: string, transport: "http" | "websocket") =>
  parseRemoteProfile({ url, transport, headers: { "X-Api-Key": "${REMOTE_TEST_KEY}" } });
const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });

describe("a remote agent that redirects", () => {
  it("POST: the 307 is a transport error naming the target; the target gets no body and no headers", async () => {
    const target = await recorder();
    const redirecting = await listen((req, res) => {
      req.resume();
      res.writeHead(307, { location: target.url.replace("127.0.0.1", "localhost") });
      res.end();
    });
    const { e, transport, exited } = events();
    const agent = await RemoteAgent.connect(profile(redirecting, "http"), e, spec, env);
    agent.write(INITIALIZE);
    await exited;
    expect(target.seen).toEqual([]);
    const named = target.url.replace("127.0.0.1", "localhost");
    expect(transport).toContainEqual(
      `POST initialize (id 1): HTTP 307 Temporary Redirect to ${named}: not followed; the relay does not follow a remote agent's redirects`,
    );
    expect(transport.at(-1)).toMatch(/^connection lost: HTTP 307 .* to http:\/\/localhost:\d+\/acp: not followed/);
    expect(transport.join("\n")).not.toMatch(/200 OK/);
  });

  it("SSE GET: a redirect of the event stream is refused and named too", async () => {
    const target = await recorder();
    const agentUrl = await listen((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += String(d)));
      req.on("end", () => {
        if (req.method === "POST") {
          const { id } = JSON.parse(body) as { id: number };
          res.writeHead(200, { "content-type": "application/json", "acp-connection-id": "conn-1" });
          res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { protocolVersion: 1 } }));
        } else if (req.method === "GET") {
          res.writeHead(302, { location: "/elsewhere" }).end();
        } else res.writeHead(202).end();
      });
    });
    // A relative Location, named as the absolute URL it would have been.
    const { e, transport, exited } = events();
    const agent = await RemoteAgent.connect(profile(agentUrl, "http"), e, spec, env);
    agent.write(INITIALIZE);
    await exited;
    expect(transport).toContainEqual(
      expect.stringMatching(/^GET connection: HTTP 302 Found to http:\/\/127\.0\.0\.1:\d+\/elsewhere: not followed/),
    );
    expect(target.seen).toEqual([]);
  });

  it("WebSocket: the upgrade's redirect is refused and named; the target is never contacted", async () => {
    const target = await recorder();
    const wsTarget = target.url.replace(/^http/, "ws");
    const redirecting = await listen(
      (_req, res) => res.writeHead(404).end(),
      (_req, socket) => {
        socket.end(`HTTP/1.1 307 Temporary Redirect\r\nLocation: ${wsTarget}\r\nContent-Length: 0\r\n\r\n`);
      },
    );
    const { e, transport } = events();
    const started = RemoteAgent.connect(profile(redirecting.replace(/^http/, "ws"), "websocket"), e, spec, env);
    await expect(started).rejects.toThrow(
      `HTTP 307 Temporary Redirect to ${wsTarget}: not followed; the relay does not follow a remote agent's redirects`,
    );
    expect(transport).toContainEqual(expect.stringMatching(/^WebSocket error: HTTP 307 .* not followed/));
    expect(target.seen).toEqual([]);
  });
});

describe("a remote agent's error body", () => {
  it("a 30 MB error body: a preview of the first KiB in the transport events, the rest never downloaded", async () => {
    const total = 30 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, "x");
    let sent = 0;
    let finished = false;
    const agentUrl = await listen((req, res) => {
      req.resume();
      res.writeHead(500, { "content-type": "text/plain", "content-length": String(total) });
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        finished = true;
        res.end();
      };
      res.on("close", () => res.removeAllListeners("drain"));
      pump();
    });
    const { e, transport, exited } = events();
    const agent = await RemoteAgent.connect(profile(agentUrl, "http"), e, spec, env);
    agent.write(INITIALIZE);
    await exited;
    // Lengths first: a failure must not print 30 MB.
    expect(transport.join("").length).toBeLessThan(2 * ERROR_BODY_PREVIEW_BYTES);
    const lost = transport.find((t) => t.startsWith("connection lost:"))!;
    expect(lost.length).toBeLessThan(ERROR_BODY_PREVIEW_BYTES + 300);
    expect(lost).toMatch(
      new RegExp(
        `^connection lost: ACP initialize failed: 500 Internal Server Error: x{${ERROR_BODY_PREVIEW_BYTES}}… \\[cut at ${ERROR_BODY_PREVIEW_BYTES} bytes\\]$`,
      ),
    );
    // The relay stopped reading: the server could not send it all (socket buffers hold a few MB at most).
    expect(finished).toBe(false);
    expect(sent).toBeLessThan(total / 2);
  });
});
