/**
 * The JSON API under /api/ (docs/relay-protocol.md#http-api). Every route but
 * /api/share and /api/sign-in needs the access token; a share link's token opens one
 * transcript read-only and nothing else.
 */
import { createWriteStream, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseWith } from "../../lib/protocol/contract";
import { renameBody, shareBody, type ShareBody } from "../../lib/contracts/http-api";
import { TranscriptError } from "../../lib/contracts/transcript";
import { latencyQuery, listQuery, queryParams, searchQuery } from "../../lib/contracts/library-search";
import { ownerRefusal, type Me } from "../../lib/contracts/transcript-meta";
import { handleComparisonApi } from "./compare-api";
import { handleProfilesApi } from "./profiles-api";
import { sendExport, sendViewer } from "./export-api";
import { handleOtlpApi } from "./otlp-api";
import { probeStoreBeside } from "../transcripts/probe-store";
import type { Relay } from "./relay";
import { bearerToken } from "./security";
import { tokenMatches } from "../tokens";
import { PRIVATE_FILE, TranscriptStore } from "../transcripts/transcript-store";
import { handleTeamApi } from "../stores/pg-routes";
import { handleWatchApi } from "./watch-api";
import { readJsonBody, sendError, sendJson } from "../wire/http-io";
import { handleSignIn } from "./sign-in";
import type { ServerStart } from "../../lib/contracts/http-api";

class BodyTooLarge extends Error {}

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
    const abort = (err: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(out);
      out.destroy();
      rmSync(file, { force: true });
      reject(err);
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) abort(new BodyTooLarge());
    });
    req.on("error", abort);
    req.on("aborted", () => abort(new Error("the upload was aborted")));
    out.on("error", abort);
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
  if (!transcript) return sendError(res, 404, "not_found", `no transcript ${id.slice(0, 80)}`);
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
  start: ServerStart = "npm-start",
): Promise<void> {
  const store = relay.transcripts;
  const parts = url.pathname.split("/").filter(Boolean).slice(1); // drop "api"
  const method = req.method ?? "GET";

  // Signing a browser in needs no token to ask whether it is, and the token to become so.
  if (await handleSignIn(req, res, parts, token, relay.team ? "team" : start, () => relay.identities.named())) return;

  // A team library on PostgreSQL answers the library's routes (server/stores/pg-routes.ts).
  // Who the bearer is: the relay's own token or a person's named one (server/http/identities.ts).
  const who = relay.identities.who(bearerToken(req));
  // A person's request still coming in (a slow body, an upload) when their token is revoked is cut
  // off: what it asks for must not happen after the revocation (docs/scaling.md#named-tokens-and-owners).
  if (who?.owner !== undefined) {
    const owner = who.owner;
    const stop = relay.identities.onRevoked((names) => (names.has(owner) ? void res.destroy() : undefined));
    res.once("close", stop);
  }
  if (relay.team && (await handleTeamApi(req, res, url, relay.team, who, relay.mirror))) return;

  // Share links carry their own token and reach exactly one transcript.
  if (parts[0] === "share" && parts.length === 2 && method === "GET") {
    const id = parts[1]!;
    const meta = TranscriptStore.isId(id) ? store.meta(id) : undefined;
    // No token (never shared, or revoked) matches nothing.
    if (!meta?.shareToken || !tokenMatches(url.searchParams.get("token"), meta.shareToken)) {
      return sendError(res, 404, "not_found", "no such shared transcript");
    }
    // The command line and local paths only when the sharer chose to show them.
    return sendTranscript(res, store, id, false, !meta.shareShowsCommand);
  }

  if (parts[0] === "comparisons") return handleComparisonApi(req, res, url, relay, who);
  if (parts.length === 1 && parts[0] === "viewer" && method === "GET")
    return sendViewer(res, url.searchParams.has("download"));
  if (!who) return sendError(res, 401, "unauthorized", "unauthorized");

  // Who this token is, so that a page offers a person only what they may change (docs/relay-protocol.md#http-api).
  if (parts.length === 1 && parts[0] === "me" && method === "GET")
    return sendJson(res, 200, (who.owner ? { owner: who.owner } : {}) satisfies Me);
  if (parts.length === 1 && parts[0] === "info" && method === "GET")
    return sendJson(res, 200, await relay.info(url.searchParams.get("profile")?.slice(0, 200)));
  if (parts.length === 1 && parts[0] === "profiles" && method === "GET") {
    return sendJson(res, 200, { profiles: [...(await relay.profiles.details()), ...(await relay.profiles.replays())] });
  }
  if (parts[0] === "profiles") return handleProfilesApi(req, res, parts, relay, who);
  if (parts[0] === "watch") return handleWatchApi(req, res, parts, relay, who.owner);

  // The library's index: full-text search and latency per method over every transcript.
  if (parts.length === 1 && (parts[0] === "search" || parts[0] === "latency") && method === "GET") {
    if (!relay.library)
      return sendError(res, 503, "index_off", "the search index is off (ACP_PLAYGROUND_SEARCH_INDEX=0)");
    const params = queryParams(url.searchParams);
    if (parts[0] === "search") {
      const read = parseWith(searchQuery, params);
      if (!read.ok) return sendError(res, 400, "invalid_query", read.error);
      return sendJson(res, 200, await relay.library.search(read.value));
    }
    const read = parseWith(latencyQuery, params);
    if (!read.ok) return sendError(res, 400, "invalid_query", read.error);
    return sendJson(res, 200, await relay.library.latency(read.value));
  }

  if ((parts[0] === "otlp" || parts[2] === "otlp") && (await handleOtlpApi(req, res, parts, relay))) return;
  if (parts[0] === "transcripts") {
    if (parts.length === 1 && method === "GET") {
      const read = parseWith(listQuery, queryParams(url.searchParams));
      if (!read.ok) return sendError(res, 400, "invalid_query", read.error);
      return sendJson(res, 200, { transcripts: store.list(read.value) });
    }
    if (parts.length === 1 && method === "POST") {
      const limit = store.limits.uploadBytes;
      const declared = Number(req.headers["content-length"]);
      const tooLarge = () => {
        // Answer now and hang up: reading the rest of an over-cap body would only cost time.
        res.setHeader("connection", "close");
        res.on("finish", () => req.destroy());
        sendError(
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
        const meta = store.import(temp);
        // A person's upload (acp-playground publish with their named token) is theirs.
        if (who.owner) store.own(meta.id, who.owner);
        return sendJson(res, 201, who.owner ? { ...meta, owner: who.owner } : meta);
      } catch (err) {
        if (err instanceof TranscriptError) return sendError(res, 400, "invalid_transcript", err.message);
        throw err;
      }
    }
    const id = parts[1];
    if (parts.length === 3 && id !== undefined && parts[2] === "export" && method === "GET")
      return sendExport(res, id, await relay.shared.read(id));
    if (parts.length === 3 && id !== undefined && parts[2] === "share") {
      if (!store.exists(id)) return sendError(res, 404, "not_found", `no transcript ${id.slice(0, 80)}`);
      if (method === "POST" || method === "DELETE") {
        const why = ownerRefusal(who, store.meta(id)?.owner, method === "POST" ? "share" : "unshare");
        if (why) return sendError(res, 403, "not_owner", why);
      }
      let body: ShareBody = {};
      if (method === "POST") {
        const read = await readJsonBody(req, shareBody, 4 * 1024, {});
        if (!read.ok) return sendError(res, 400, "invalid_payload", read.error);
        body = read.value;
      }
      const meta = method === "POST" ? store.share(id, body) : method === "DELETE" ? store.unshare(id) : undefined;
      if (meta) return sendJson(res, 200, meta);
    }
    if (parts.length === 2 && id !== undefined) {
      if (!store.exists(id)) return sendError(res, 404, "not_found", `no transcript ${id.slice(0, 80)}`);
      if (method === "GET") return sendTranscript(res, store, id, url.searchParams.has("download"));
      if (method === "DELETE" || method === "PATCH") {
        const why = ownerRefusal(who, store.meta(id)?.owner, method === "DELETE" ? "delete" : "rename");
        if (why) return sendError(res, 403, "not_owner", why);
      }
      if (method === "DELETE") {
        return store.delete(id)
          ? void res.writeHead(204).end()
          : sendError(res, 409, "recording", "the transcript is still being recorded");
      }
      if (method === "PATCH") {
        const read = await readJsonBody(req, renameBody, 64 * 1024);
        if (!read.ok) return sendError(res, 400, "invalid_payload", read.error);
        return sendJson(res, 200, store.rename(id, read.value.title));
      }
    }
  }
  if (parts[0] === "probes") {
    const probes = probeStoreBeside(store);
    if (parts.length === 1 && method === "GET") return sendJson(res, 200, { probes: probes.list() });
    const id = parts[1];
    if (parts.length === 2 && id !== undefined) {
      const report = probes.get(id);
      if (!report) return sendError(res, 404, "not_found", `no probe report ${id.slice(0, 80)}`);
      if (method === "GET") return sendJson(res, 200, report);
      // A report is its probe's transcript's owner's (gone with it: the admin's).
      const why =
        method === "DELETE" &&
        ownerRefusal(who, report.transcriptId ? store.meta(report.transcriptId)?.owner : undefined, "delete");
      if (why) return sendError(res, 403, "not_owner", why);
      if (method === "DELETE")
        return probes.delete(id) ? void res.writeHead(204).end() : sendError(res, 404, "not_found", id);
    }
  }
  return sendError(res, 404, "not_found", `no route: ${method} ${url.pathname}`);
}
