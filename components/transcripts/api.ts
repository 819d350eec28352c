/**
 * The relay's HTTP API (docs/relay-protocol.md#http-api) as the pages use it:
 * every call carries the access token; failures become ApiError with the
 * server's own message.
 */
import type { HttpErrorBody, RenameBody, ShareBody } from "@/lib/contracts/http-api";
import type { ProfileDetails, RelayInfo } from "@/lib/contracts/wire";
import type { Me, TranscriptMeta } from "@/lib/contracts/transcript-meta";
import type { LatencyAnswer, LatencyQuery, SearchAnswer, SearchQuery } from "@/lib/contracts/library-search";
import type { OtlpSendEvent, OtlpTargetInfo } from "@/lib/contracts/otlp-api";

export type { TranscriptMeta };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Turns a failed response into an ApiError carrying the server's `{ error: { code, message } }`. */
export async function errorOf(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as Partial<HttpErrorBody>;
    return new ApiError(res.status, body.error?.code ?? "http_error", body.error?.message ?? `HTTP ${res.status}`);
  } catch {
    return new ApiError(res.status, "http_error", `HTTP ${res.status} ${res.statusText}`);
  }
}

export const authHeaders = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

async function call(token: string, path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(path, { ...init, cache: "no-store", headers: { ...authHeaders(token), ...init.headers } });
  if (!res.ok) throw await errorOf(res);
  return res;
}

const json = <T>(res: Response) => res.json() as Promise<T>;

/** A query object as URL parameters (what `queryParams` in lib/contracts/library-search.ts reads back). */
function queryString(query: object): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== "" && v !== false) params.set(k, v === true ? "1" : String(v));
  return params.toString();
}

export const transcriptUrl = (id: string) => `/api/transcripts/${encodeURIComponent(id)}`;
export const shareApiUrl = (id: string, shareToken: string) =>
  `/api/share/${encodeURIComponent(id)}?token=${encodeURIComponent(shareToken)}`;
/** The read-only page a share link opens. */
export const sharePageUrl = (id: string, shareToken: string) =>
  `${window.location.origin}/share/${encodeURIComponent(id)}?token=${encodeURIComponent(shareToken)}`;

export function api(token: string) {
  return {
    /** `profile`: described even when a `replay:<id>` the relay's short list of replays leaves out. */
    info: (profile?: string) =>
      call(token, profile ? `/api/info?profile=${encodeURIComponent(profile)}` : "/api/info").then(json<RelayInfo>),
    /** Who this token is: a person (a named token's name) or the server's admin. */
    me: () => call(token, "/api/me").then(json<Me>),
    profiles: () =>
      call(token, "/api/profiles")
        .then(json<{ profiles: ProfileDetails[] }>)
        .then((b) => b.profiles),
    list: () =>
      call(token, "/api/transcripts")
        .then(json<{ transcripts: TranscriptMeta[] }>)
        .then((b) => b.transcripts),
    rename: (id: string, title: string) =>
      call(token, transcriptUrl(id), {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title } satisfies RenameBody),
      }).then(json<TranscriptMeta>),
    /** `showCommand`: whether the share page may show the agent's command line and local paths. */
    share: (id: string, showCommand = false) =>
      call(token, `${transcriptUrl(id)}/share`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ showCommand } satisfies ShareBody),
      }).then(json<TranscriptMeta>),
    unshare: (id: string) => call(token, `${transcriptUrl(id)}/share`, { method: "DELETE" }).then(json<TranscriptMeta>),
    remove: (id: string) => call(token, transcriptUrl(id), { method: "DELETE" }).then(() => undefined),
    /** The file as it is: the relay streams it to disk and checks its size as it arrives. */
    upload: (body: Blob | string) =>
      call(token, "/api/transcripts", {
        method: "POST",
        headers: { "content-type": "application/x-ndjson" },
        body,
      }).then(json<TranscriptMeta>),
    download: async (id: string) => {
      const res = await call(token, `${transcriptUrl(id)}?download`);
      const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `${id}.jsonl`;
      return { blob: await res.blob(), name };
    },
    /** Full-text search over every transcript (the relay's index). */
    search: (query: SearchQuery, signal?: AbortSignal) =>
      call(token, `/api/search?${queryString(query)}`, { signal }).then(json<SearchAnswer>),
    /** Latency per method and direction across the library. */
    latency: (query: LatencyQuery, signal?: AbortSignal) =>
      call(token, `/api/latency?${queryString(query)}`, { signal }).then(json<LatencyAnswer>),
    /** Where `serve --otlp` sends traces (docs/otel.md); `url` null when nowhere. */
    otlpTarget: () => call(token, "/api/otlp").then(json<OtlpTargetInfo>),
    /** Sends a finished transcript there; `onEvent` sees each line (progress, then done or error). */
    sendOtlp: async (id: string, onEvent: (e: OtlpSendEvent) => void) => {
      const res = await call(token, `${transcriptUrl(id)}/otlp`, { method: "POST" });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let rest = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const lines = (rest + value).split("\n");
        rest = lines.pop() ?? "";
        for (const l of lines) if (l.trim()) onEvent(JSON.parse(l) as OtlpSendEvent);
      }
    },
    /** The one-file HTML export (server/transcripts/export.ts). */
    exportHtml: async (id: string) => ({
      blob: await (await call(token, `${transcriptUrl(id)}/export`)).blob(),
      name: `${id}.html`,
    }),
  };
}
