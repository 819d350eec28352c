/**
 * GET /api/transcripts/:id/export (docs/relay-protocol.md#http-api): the
 * transcript as one self-contained HTML file (server/transcripts/export.ts), redacted
 * with the secrets of this server's environment, as a download.
 */
import type { ServerResponse } from "node:http";
import { secretsFromEnv } from "../../lib/features/library/redact";
import { TranscriptError } from "../../lib/contracts/transcript";
import { exportHtml, viewerHtml } from "../transcripts/export";
import { sendError } from "../wire/http-io";

/** `text`: the transcript's JSONL, wherever it was recorded (server/transcripts/shared-transcripts.ts). */
export async function sendExport(res: ServerResponse, id: string, text: string | undefined): Promise<void> {
  if (text === undefined) return sendError(res, 404, "not_found", `no transcript ${id.slice(0, 80)}`);
  let html: string;
  try {
    ({ html } = await exportHtml(text, secretsFromEnv(process.env)));
  } catch (err) {
    if (err instanceof TranscriptError) {
      return sendError(res, 422, "invalid_transcript", err.message);
    }
    throw err;
  }
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-disposition": `attachment; filename="${id}.html"`,
    "x-content-type-options": "nosniff",
  });
  res.end(html);
}

/**
 * GET /api/viewer: the export's viewer with no transcript (it opens a file the
 * reader picks), shown in place, or as a download with `?download`. It holds
 * no data, so it needs no token; its own policy forbids any network.
 */
export async function sendViewer(res: ServerResponse, download: boolean): Promise<void> {
  const { html, csp } = await viewerHtml();
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    ...(download ? { "content-disposition": 'attachment; filename="acp-viewer.html"' } : {}),
  });
  res.end(html);
}
