/**
 * The OTLP routes (docs/relay-protocol.md#http-api, docs/otel.md): `GET /api/otlp` says where
 * `serve --otlp` sends traces; `POST /api/transcripts/:id/otlp` sends one finished recording
 * there, answering NDJSON lines as batches are accepted and a last line with the backend's answer.
 */
import { rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { OtlpSendEvent, OtlpTargetInfo } from "../../lib/contracts/otlp-api";
import { TranscriptError } from "../../lib/contracts/transcript";
import { LiveOtlpExport } from "../otel/live-export";
import { OtlpExportError } from "../otel/otlp-sender";
import { sendError, sendJson } from "../wire/http-io";
import { TEAM_COPIES } from "../transcripts/shared-transcripts";
import { failureOf } from "../relay-failure";
import type { Relay } from "./relay";

/** Handles `parts` (the path after /api/) when it is an OTLP route; false when it is not one. */
export async function handleOtlpApi(
  req: IncomingMessage,
  res: ServerResponse,
  parts: string[],
  relay: Relay,
): Promise<boolean> {
  const live = relay.transcripts.recordings instanceof LiveOtlpExport ? relay.transcripts.recordings : undefined;
  if (parts.length === 1 && parts[0] === "otlp" && req.method === "GET") {
    sendJson(res, 200, (live ? live.info : { url: null }) satisfies OtlpTargetInfo);
    return true;
  }
  if (!(parts.length === 3 && parts[0] === "transcripts" && parts[2] === "otlp" && req.method === "POST")) return false;
  const id = parts[1]!;
  if (!live) {
    sendError(res, 409, "no_endpoint", "no OTLP endpoint is configured: start the playground with serve --otlp URL");
    return true;
  }
  // With --database, one recorded on another instance too (server/transcripts/shared-transcripts.ts).
  const meta = await relay.shared.meta(id);
  if (!meta) {
    sendError(res, 404, "not_found", `no transcript ${id.slice(0, 80)}`);
    return true;
  }
  if (meta.recording) {
    sendError(res, 409, "recording", "the transcript is still being recorded: it is being sent live");
    return true;
  }
  const source = await relay.shared.file(id, path.join(relay.config.dataDir, TEAM_COPIES));
  if (!source) {
    sendError(res, 404, "not_found", `no transcript ${id.slice(0, 80)}`);
    return true;
  }
  res.writeHead(200, { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" });
  const line = (e: OtlpSendEvent) => res.write(`${JSON.stringify(e)}\n`);
  try {
    const summary = await live.exportFile(source.file, id, (spans) => line({ type: "progress", spans }));
    line({ type: "done", spans: summary.spans, traces: summary.turns, url: live.url });
  } catch (err) {
    if (err instanceof OtlpExportError) line({ type: "error", message: err.message, status: err.status });
    else if (err instanceof TranscriptError)
      line({ type: "error", message: `the transcript does not parse: ${err.message}` });
    // A file system's or a library's words (a path) are the operator's: in the log.
    else line({ type: "error", message: failureOf(err, `POST /api/transcripts/${id}/otlp`).message });
  } finally {
    if (source.scratch) rmSync(source.scratch, { recursive: true, force: true });
  }
  res.end();
  return true;
}
