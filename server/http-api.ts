/**
 * The JSON API under /api/ (docs/relay-protocol.md#http-api). Every route but
 * /api/share needs the access token; a share link's token opens one transcript
 * read-only and nothing else.
 */
import { createWriteStream, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { TranscriptError } from "../lib/transcript";
import { handleComparisonApi } from "./compare-api";
import { sendExport } from "./export-api";
import { probeStoreBeside } from "./probe-store";
import type { Relay } from "./relay";
import { bearerToken, tokenMatches } from "./security";
import { PRIVATE_FILE, TranscriptStore } from "./transcript-store";

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

const fail = (res: ServerResponse, status: number, code: string, message: string) =>
  sendJson(res, status, { error: { code, message } });

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Streams a request body to `file`, counting bytes as they arrive: past `limit`
 * the request is dropped and the file removed, so an over-cap upload costs
 * neither memory nor disk.
 */
function receiveFile(req: IncomingMessage, file: string, limit: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file, { mode: PRIVATE_FILE, flags: "wx" });
    let size = 0;
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(out);
      out.destroy();
      rmSync(file, { force: true });
      reject(err);
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(new BodyTooLarge());
    });
    req.on("error", fail);
    req.on("aborted", () => fail(new Error("the upload was aborted")));
    out.on("error", fail);
    out.on("finish", () => (failed ? undefined : resolve()));
    req.pipe(out);
  });
}

function sendTranscript(
  res: ServerResponse,
  store: TranscriptStore,
  id: string,
  download: boolean,
  hideLocal = false,
): void {
  const transcript = store.stream(id, { hideLocal });
  if (!transcript) return fail(res, 404, "not_found", `no transcript ${id.slice(0, 80)}`);
  const headers: Record<string, string> = {
    "content-type": "application/x-ndjson; charset=utf-8",
    "cache-control": "no-store",
  };
  if (download) headers["content-disposition"] = `attachment; filename="${id}.jsonl"`;
  res.writeHead(200, headers);
  res.write(transcript.header);
  if (!transcript.rest) return void res.end();
  // A read error after the headers went out can only cut the reply short.
  transcript.rest.on("error", () => res.destroy());
  res.on("close", () => transcript.rest!.destroy());
  transcript.rest.pipe(res);
}

export async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  relay: Relay,
  token: string,
): Promise<void> {
  const store = relay.transcripts;
  const parts = url.pathname.split("/").filter(Boolean).slice(1); // drop "api"
  const method = req.method ?? "GET";

  // Share links carry their own token and reach exactly one transcript.
  if (parts[0] === "share" && parts.length === 2 && method === "GET") {
    const id = parts[1]!;
    const meta = TranscriptStore.isId(id) ? store.meta(id) : undefined;
    // No token (never shared, or revoked) matches nothing.
    if (!meta?.shareToken || !tokenMatches(url.searchParams.get("token"), meta.shareToken)) {
      return fail(res, 404, "not_found", "no such shared transcript");
    }
    // The command line and local paths only when the sharer chose to show them.
    return sendTranscript(res, store, id, false, !meta.shareShowsCommand);
  }

  if (parts[0] === "comparisons") return handleComparisonApi(req, res, url, relay, token);
  if (!tokenMatches(bearerToken(req), token)) return fail(res, 401, "unauthorized", "unauthorized");

  if (parts.length === 1 && parts[0] === "info" && method === "GET") return sendJson(res, 200, relay.info());
  if (parts.length === 1 && parts[0] === "profiles" && method === "GET") {
    return sendJson(res, 200, { profiles: [...(await relay.profiles.details()), ...relay.profiles.replays()] });
  }

  if (parts[0] === "transcripts") {
    if (parts.length === 1 && method === "GET") return sendJson(res, 200, { transcripts: store.list() });
    if (parts.length === 1 && method === "POST") {
      const limit = store.limits.uploadBytes;
      const declared = Number(req.headers["content-length"]);
      const tooLarge = () => {
        // Answer now and hang up: reading the rest of an over-cap body would only cost time.
        res.setHeader("connection", "close");
        res.on("finish", () => req.destroy());
        fail(
          res,
          413,
          "too_large",
          `a transcript upload may be at most ${limit} bytes (ACP_PLAYGROUND_UPLOAD_MAX_BYTES); nothing was kept`,
        );
      };
      if (declared > limit) return tooLarge();
      const temp = store.tempFile();
      try {
        await receiveFile(req, temp, limit);
      } catch (err) {
        if (err instanceof BodyTooLarge) return tooLarge();
        throw err;
      }
      try {
        return sendJson(res, 201, store.import(temp));
      } catch (err) {
        if (err instanceof TranscriptError) return fail(res, 400, "invalid_transcript", err.message);
        throw err;
      }
    }
    const id = parts[1];
    if (parts.length === 3 && id !== undefined && parts[2] === "export" && method === "GET")
      return sendExport(res, store, id);
    if (parts.length === 3 && id !== undefined && parts[2] === "share") {
      if (!store.exists(id)) return fail(res, 404, "not_found", `no transcript ${id.slice(0, 80)}`);
      let showCommand: boolean | undefined;
      if (method === "POST") {
        try {
          const text = await readBody(req, 4 * 1024);
          const body: unknown = text.trim() === "" ? {} : JSON.parse(text);
          const value = (body as { showCommand?: unknown })?.showCommand;
          if (value !== undefined && typeof value !== "boolean") throw new Error();
          showCommand = value as boolean | undefined;
        } catch {
          return fail(res, 400, "invalid_payload", "expected no body or a JSON body { showCommand: boolean }");
        }
      }
      const meta =
        method === "POST" ? store.share(id, { showCommand }) : method === "DELETE" ? store.unshare(id) : undefined;
      if (meta) return sendJson(res, 200, meta);
    }
    if (parts.length === 2 && id !== undefined) {
      if (!store.exists(id)) return fail(res, 404, "not_found", `no transcript ${id.slice(0, 80)}`);
      if (method === "GET") return sendTranscript(res, store, id, url.searchParams.has("download"));
      if (method === "DELETE") {
        return store.delete(id)
          ? void res.writeHead(204).end()
          : fail(res, 409, "recording", "the transcript is still being recorded");
      }
      if (method === "PATCH") {
        let body: unknown;
        try {
          body = JSON.parse(await readBody(req, 64 * 1024));
        } catch {
          return fail(res, 400, "invalid_payload", "expected a JSON body { title }");
        }
        const title = (body as { title?: unknown })?.title;
        if (typeof title !== "string" || title.trim() === "" || title.length > 200) {
          return fail(res, 400, "invalid_payload", "title must be a non-empty string of at most 200 characters");
        }
        return sendJson(res, 200, store.rename(id, title.trim()));
      }
    }
  }
  if (parts[0] === "probes") {
    const probes = probeStoreBeside(store);
    if (parts.length === 1 && method === "GET") return sendJson(res, 200, { probes: probes.list() });
    const id = parts[1];
    if (parts.length === 2 && id !== undefined) {
      const report = probes.get(id);
      if (!report) return fail(res, 404, "not_found", `no probe report ${id.slice(0, 80)}`);
      if (method === "GET") return sendJson(res, 200, report);
      if (method === "DELETE")
        return probes.delete(id) ? void res.writeHead(204).end() : fail(res, 404, "not_found", id);
    }
  }
  return fail(res, 404, "not_found", `no route: ${method} ${url.pathname}`);
}
