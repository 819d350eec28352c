/**
 * With `serve --database`, the library's routes answer from PostgreSQL: GET /api/transcripts,
 * GET/DELETE/PATCH /api/transcripts/:id, POST/DELETE /api/transcripts/:id/share, GET
 * /api/share/:id, /api/search, /api/latency, GET /api/probes, GET/DELETE /api/probes/:id and
 * /api/comparisons (but its workspaces), with the file store's answers (docs/relay-protocol.md#http-api). Uploads still go to the local store, which copies them here
 * (server/stores/pg-mirror.ts); other routes are left to the file store's handler.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseWith } from "../../lib/protocol/contract";
import { renameBody, shareBody, type ShareBody } from "../../lib/contracts/http-api";
import { latencyQuery, listQuery, queryParams, searchQuery } from "../../lib/contracts/library-search";
import { serialize, type TranscriptHeader } from "../../lib/contracts/transcript";
import { readJsonBody, sendError, sendJson } from "../wire/http-io";
import { tokenMatches } from "../tokens";
import { HIDDEN_WORKSPACE, localPaths } from "../transcripts/local-paths";
import type { PgStore } from "./pg-store";
import type { PgMirror } from "./pg-mirror";
import { PgComparisons } from "./pg-comparisons";
import { comparisonInput } from "../../lib/contracts/compare-format";
import { ownerRefusal, type Me } from "../../lib/contracts/transcript-meta";
import { comparisonRefusal } from "../transcripts/comparison-links";

type Streamed = NonNullable<Awaited<ReturnType<PgStore["stream"]>>>;

/**
 * Sends a transcript as it is read, a chunk at a time, waiting while the reader is slow; as a
 * share page shows it unless the sharer chose otherwise (`hideLocal`): no command line, no local paths.
 */
async function sendJsonl(
  res: ServerResponse,
  id: string,
  { header, rest }: Streamed,
  options: { download?: boolean; hideLocal?: boolean },
): Promise<void> {
  const headers: Record<string, string> = {
    "content-type": "application/x-ndjson; charset=utf-8",
    "cache-control": "no-store",
  };
  if (options.download) headers["content-disposition"] = `attachment; filename="${id}.jsonl"`;
  const hide = options.hideLocal ? localPaths(header.agent.cwd) : (text: string) => text;
  const shown: TranscriptHeader = options.hideLocal
    ? { ...header, agent: { profile: header.agent.profile, command: "(hidden)", args: [], cwd: HIDDEN_WORKSPACE } }
    : header;
  res.writeHead(200, headers);
  res.write(serialize(shown));
  for await (const chunk of rest) {
    if (res.destroyed) return;
    if (!res.write(hide(chunk)))
      await new Promise<void>((resolve) => {
        const go = () => {
          res.off("drain", go);
          res.off("close", go);
          resolve();
        };
        res.on("drain", go);
        res.on("close", go);
      });
  }
  res.end();
}

/** Answers a library route from the database; false when the route is not one of them (or needs a token it lacks). */
export async function handleTeamApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  team: PgStore,
  /** Who the request's token is (server/http/identities.ts); undefined: no one. */
  who: Me | undefined,
  /** This instance's copier: what it recorded is in the database before a comparison names it. */
  mirror?: PgMirror,
): Promise<boolean> {
  const parts = url.pathname.split("/").filter(Boolean).slice(1); // drop "api"
  const method = req.method ?? "GET";
  /** Marks a route answered (its argument, the answer sent, is only evaluated). */
  const done = (_sent: void) => true;

  if (parts[0] === "share" && parts.length === 2 && method === "GET") {
    await team.ready;
    const id = parts[1]!;
    const meta = await team.meta(id);
    if (!meta?.shareToken || !tokenMatches(url.searchParams.get("token"), meta.shareToken))
      return done(sendError(res, 404, "not_found", "no such shared transcript"));
    const streamed = await team.stream(id);
    if (streamed === undefined) return done(sendError(res, 404, "not_found", "no such shared transcript"));
    return done(await sendJsonl(res, id, streamed, { hideLocal: !meta.shareShowsCommand }));
  }
  if (parts[0] === "comparisons" && parts.length === 3 && parts[2] === "shared" && method === "GET") {
    await team.ready;
    const shared = await new PgComparisons(team).shared(parts[1]!, url.searchParams.get("token"));
    return done(shared ? sendJson(res, 200, shared) : sendError(res, 404, "not_found", "no such shared comparison"));
  }
  if (!who) return false;

  if (parts[0] === "comparisons" && parts[1] !== "workspaces") {
    await team.ready;
    return handleComparisons(req, res, parts.slice(1), method, team, who, mirror);
  }

  if (parts.length === 1 && (parts[0] === "search" || parts[0] === "latency") && method === "GET") {
    await team.ready;
    const params = queryParams(url.searchParams);
    if (parts[0] === "search") {
      const read = parseWith(searchQuery, params);
      if (!read.ok) return done(sendError(res, 400, "invalid_query", read.error));
      return done(sendJson(res, 200, await team.search(read.value)));
    }
    const read = parseWith(latencyQuery, params);
    if (!read.ok) return done(sendError(res, 400, "invalid_query", read.error));
    return done(sendJson(res, 200, await team.latency(read.value)));
  }

  if (parts[0] === "probes") {
    await team.ready;
    if (parts.length === 1 && method === "GET") return done(sendJson(res, 200, { probes: await team.probes() }));
    const id = parts[1];
    if (parts.length !== 2 || id === undefined || (method !== "GET" && method !== "DELETE")) return false;
    const gone = () => sendError(res, 404, "not_found", `no probe report ${id.slice(0, 80)}`);
    if (method === "GET") {
      const report = await team.probe(id);
      return done(report ? sendJson(res, 200, { ...report, id }) : gone());
    }
    // A report is its probe's transcript's owner's (gone with it: the admin's).
    const report = await team.probe(id);
    if (!report) return done(gone());
    const owner = report.transcriptId ? (await team.meta(report.transcriptId))?.owner : undefined;
    const why = ownerRefusal(who, owner, "delete");
    if (why) return done(sendError(res, 403, "not_owner", why));
    return done((await team.deleteProbe(id)) ? void res.writeHead(204).end() : gone());
  }

  if (parts[0] !== "transcripts") return false;
  await team.ready;
  if (parts.length === 1 && method === "GET") {
    const read = parseWith(listQuery, queryParams(url.searchParams));
    if (!read.ok) return done(sendError(res, 400, "invalid_query", read.error));
    return done(sendJson(res, 200, { transcripts: await team.list(read.value) }));
  }
  const id = parts[1];
  if (id === undefined) return false;
  const missing = () => sendError(res, 404, "not_found", `no transcript ${id.slice(0, 80)}`);
  if (parts.length === 3 && parts[2] === "share" && (method === "POST" || method === "DELETE")) {
    const current = await team.meta(id);
    if (!current) return done(missing());
    const why = ownerRefusal(who, current.owner, method === "POST" ? "share" : "unshare");
    if (why) return done(sendError(res, 403, "not_owner", why));
    let body: ShareBody = {};
    if (method === "POST") {
      const read = await readJsonBody(req, shareBody, 4 * 1024, {});
      if (!read.ok) return done(sendError(res, 400, "invalid_payload", read.error));
      body = read.value;
    }
    const meta = method === "POST" ? await team.share(id, body) : await team.unshare(id);
    return done(meta ? sendJson(res, 200, meta) : missing());
  }
  if (parts.length !== 2) return false;
  if (method === "GET") {
    const streamed = await team.stream(id);
    if (streamed === undefined) return done(missing());
    return done(await sendJsonl(res, id, streamed, { download: url.searchParams.has("download") }));
  }
  if (method === "DELETE" || method === "PATCH") {
    const current = await team.meta(id);
    if (!current) return done(missing());
    const why = ownerRefusal(who, current.owner, method === "DELETE" ? "delete" : "rename");
    if (why) return done(sendError(res, 403, "not_owner", why));
  }
  if (method === "DELETE") {
    return done(
      (await team.delete(id))
        ? void res.writeHead(204).end()
        : sendError(res, 409, "recording", "the transcript is still being recorded"),
    );
  }
  if (method === "PATCH") {
    const read = await readJsonBody(req, renameBody, 64 * 1024);
    if (!read.ok) return done(sendError(res, 400, "invalid_payload", read.error));
    const meta = await team.rename(id, read.value.title);
    return done(meta ? sendJson(res, 200, meta) : missing());
  }
  return false;
}

/** /api/comparisons from the database (but POST /api/comparisons/workspaces: the file store's handler). */
async function handleComparisons(
  req: IncomingMessage,
  res: ServerResponse,
  parts: string[],
  method: string,
  team: PgStore,
  who: Me,
  mirror: PgMirror | undefined,
): Promise<boolean> {
  const done = (_sent: void) => true;
  /** Both transcripts as the rule needs them (comparisonRefusal). */
  const sidesOf = (c: { sides: ReadonlyArray<{ transcriptId: string }> }) =>
    Promise.all(c.sides.map(async (s) => ({ id: s.transcriptId, owner: (await team.meta(s.transcriptId))?.owner })));
  const store = new PgComparisons(team);
  if (parts.length === 0 && method === "GET") return done(sendJson(res, 200, { comparisons: await store.list() }));
  if (parts.length === 0 && method === "POST") {
    const body = await readJsonBody(req, comparisonInput, 256 * 1024);
    if (!body.ok) return done(sendError(res, 400, "invalid_payload", body.error));
    await mirror?.flush();
    const why = comparisonRefusal(who, "compare", undefined, await sidesOf(body.value));
    if (why) return done(sendError(res, 403, "not_owner", why));
    const saved = await store.save(body.value, who.owner);
    if ("missing" in saved) return done(sendError(res, 400, "not_found", `no transcript ${saved.missing}`));
    return done(sendJson(res, 201, saved));
  }
  const id = parts[0];
  if (id === undefined) return false;
  const missing = () => sendError(res, 404, "not_found", `no comparison ${id.slice(0, 80)}`);
  if (parts.length === 1 && (method === "GET" || method === "DELETE")) {
    const record = await store.get(id);
    if (!record) return done(missing());
    if (method === "GET") return done(sendJson(res, 200, record));
    const why = comparisonRefusal(who, "delete", record, []);
    if (why) return done(sendError(res, 403, "not_owner", why));
    return done((await store.delete(id)) ? void res.writeHead(204).end() : missing());
  }
  if (parts.length === 2 && parts[1] === "share" && (method === "POST" || method === "DELETE")) {
    const current = await store.get(id);
    const why =
      current && comparisonRefusal(who, method === "POST" ? "share" : "unshare", current, await sidesOf(current));
    if (why) return done(sendError(res, 403, "not_owner", why));
    const record = method === "POST" ? await store.share(id) : await store.unshare(id);
    return done(
      record
        ? sendJson(res, 200, record)
        : sendError(res, 404, "not_found", `no comparison ${id.slice(0, 80)} (or one of its transcripts is gone)`),
    );
  }
  return false;
}
