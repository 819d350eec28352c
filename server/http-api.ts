/**
 * The JSON API under /api/ (docs/relay-protocol.md#http-api). Every route but
 * /api/share needs the access token; a share link's token opens one transcript
 * read-only and nothing else.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { TranscriptError } from "../lib/transcript";
import { sendExport } from "./export-api";
import type { Relay } from "./relay";
import { bearerToken, tokenMatches } from "./security";
import { TranscriptStore } from "./transcript-store";

const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;

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

function sendTranscript(res: ServerResponse, store: TranscriptStore, id: string, download: boolean): void {
  const transcript = store.stream(id);
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
    if (!meta || !tokenMatches(url.searchParams.get("token"), meta.shareToken)) {
      return fail(res, 404, "not_found", "no such shared transcript");
    }
    return sendTranscript(res, store, id, false);
  }

  if (!tokenMatches(bearerToken(req), token)) return fail(res, 401, "unauthorized", "unauthorized");

  if (parts.length === 1 && parts[0] === "info" && method === "GET") return sendJson(res, 200, relay.info());
  if (parts.length === 1 && parts[0] === "profiles" && method === "GET") {
    return sendJson(res, 200, { profiles: [...(await relay.profiles.details()), ...relay.profiles.replays()] });
  }

  if (parts[0] === "transcripts") {
    if (parts.length === 1 && method === "GET") return sendJson(res, 200, { transcripts: store.list() });
    if (parts.length === 1 && method === "POST") {
      let text: string;
      try {
        text = await readBody(req, MAX_UPLOAD_BYTES);
      } catch (err) {
        if (err instanceof BodyTooLarge)
          return fail(res, 413, "too_large", `a transcript may be at most ${MAX_UPLOAD_BYTES} bytes`);
        throw err;
      }
      try {
        return sendJson(res, 201, store.import(text));
      } catch (err) {
        if (err instanceof TranscriptError) return fail(res, 400, "invalid_transcript", err.message);
        throw err;
      }
    }
    const id = parts[1];
    if (parts.length === 3 && id !== undefined && parts[2] === "export" && method === "GET")
      return sendExport(res, store, id);
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
  return fail(res, 404, "not_found", `no route: ${method} ${url.pathname}`);
}
