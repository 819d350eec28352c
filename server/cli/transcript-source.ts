/**
 * A transcript named on the command line: a file, the id of one in the local library, or a link to
 * one on a team server (any relay) as the browser shows it. One definition for every command that
 * reads transcripts (replay, export, validate, publish): each then reads a local file, so a
 * download goes through the same parsing and validation as a file.
 *
 * The remote is hostile: http(s) only, bounded in size and time, no redirect to another origin
 * with the token, and the server's token only from ACP_PLAYGROUND_TOKEN (never the command line).
 */
import { closeSync, existsSync, mkdtempSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { transcriptLimits } from "../config";
import { dataDirFor } from "../runtime";
import { PRIVATE_FILE, TranscriptStore } from "../transcripts/transcript-store";
import { CliError } from "./cli-error";
import { removedOnExit } from "../removed-on-exit";

/** Why a named transcript cannot be read; the command says which one. */
export class SourceError extends Error {}

export interface Source {
  /** What messages call it: the path, the id, or the link without its query (a share token is a secret). */
  name: string;
  /** A local file holding its bytes (a link's in a private temporary folder until close()). */
  file: string;
  /** The name for files made from it: a path without .jsonl beside the file, else the id (in the current folder). */
  stem: string;
  /** A link to a relay: its base URL (for links back to it) and the transcript's id there. */
  remote?: { base: string; id: string };
  close(): void;
}

export interface SourceOptions {
  env?: Record<string, string | undefined>;
  /** The local library, for ids. */
  dataDir?: string;
  /** No answer, and then no bytes, for this long ends a download. */
  timeoutMs?: number;
}

/** Default wait for a server's answer and then for each chunk of it. */
export const SOURCE_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
/** An error answer's bytes shown: a hostile server's error body is not read whole. */
const ERROR_BODY_BYTES = 4096;

/** How a link is read: the API route that answers its JSONL, and whether the server's token goes with it. */
export interface RemoteLink {
  url: URL;
  name: string;
  /** Sent the server's token: a library link (share links and plain files carry their own access). */
  auth: boolean;
  kind: "transcript" | "share" | "file";
  base: string;
  id?: string;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

export function isLink(arg: string): boolean {
  return SCHEME.test(arg);
}

/**
 * A link as the browser shows it (`/transcripts/ID`, `/share/ID?token=`) or as the API serves it
 * (`/api/transcripts/ID`, `/api/share/ID?token=`), under any path prefix; any other http(s) URL is
 * a plain file, read without the token.
 */
export function remoteLink(arg: string): RemoteLink {
  let url: URL;
  try {
    url = new URL(arg);
  } catch {
    throw new SourceError("not a valid link");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new SourceError(`only http:// and https:// links are read, not ${url.protocol}`);
  if (url.username || url.password)
    throw new SourceError("a link carries no user or password: the server's token goes in ACP_PLAYGROUND_TOKEN");
  url.hash = "";
  const name = `${url.origin}${url.pathname}`;
  const plain: RemoteLink = { url, name, auth: false, kind: "file", base: url.origin };
  const m = /^(.*?)\/(?:api\/)?(transcripts|share)\/([^/]+)\/?$/.exec(url.pathname);
  if (!m) return plain;
  const [, prefix = "", route, encoded = ""] = m;
  let id: string;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    return plain;
  }
  if (!TranscriptStore.isId(id)) return plain;
  const base = `${url.origin}${prefix}`;
  if (route === "share") {
    const token = url.searchParams.get("token");
    if (!token) throw new SourceError("a share link needs its ?token=");
    const api = new URL(`${prefix}/api/share/${id}`, url.origin);
    api.searchParams.set("token", token);
    return { url: api, name, auth: false, kind: "share", base, id };
  }
  // Any ?token= a copied address carries is dropped: the token comes from the environment only.
  return {
    url: new URL(`${prefix}/api/transcripts/${id}?download`, url.origin),
    name,
    auth: true,
    kind: "transcript",
    base,
    id,
  };
}

/** Opens what FILE names: a link (downloaded), an existing file, or an id in the local library. */
export async function openSource(arg: string, options: SourceOptions = {}): Promise<Source> {
  const env = options.env ?? process.env;
  if (isLink(arg)) return openLink(remoteLink(arg), env, options.timeoutMs ?? SOURCE_TIMEOUT_MS);
  const local = (file: string, stem: string): Source => ({ name: arg, file, stem, close: () => {} });
  if (existsSync(arg)) return local(arg, arg.replace(/\.jsonl$/, ""));
  // No library made where there is none: a mistyped name is not a reason to create a data folder.
  if (TranscriptStore.isId(arg) && options.dataDir && existsSync(options.dataDir)) {
    const store = new TranscriptStore(options.dataDir, {});
    if (store.exists(arg)) return local(store.file(arg), arg);
  }
  throw new SourceError("no such file, nor a transcript id in the local library");
}

/** FILE as messages may show it: a link without its query, which may hold a share token. */
export function nameOf(arg: string): string {
  if (!isLink(arg)) return arg;
  try {
    const url = new URL(arg);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return "the link";
  }
}

/** openSource for a command that reads FILE: exit 4 naming what cannot be read, and why. */
export async function openInput(arg: string, options: SourceOptions = {}): Promise<Source> {
  const env = options.env ?? process.env;
  try {
    return await openSource(arg, { dataDir: dataDirFor(env, process.cwd()), ...options, env });
  } catch (err) {
    if (err instanceof SourceError) throw new CliError(`cannot read ${nameOf(arg)}: ${err.message}`, 4);
    throw err;
  }
}

async function openLink(link: RemoteLink, env: Record<string, string | undefined>, timeoutMs: number): Promise<Source> {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-source-"));
  const file = path.join(dir, `${link.id ?? "transcript"}.jsonl`);
  // Removed also when the command is interrupted mid-download or while it uses the file.
  const close = removedOnExit(dir);
  try {
    await download(link, env, timeoutMs, file);
  } catch (err) {
    close();
    throw err;
  }
  return {
    name: link.name,
    file,
    stem: link.id ?? (path.basename(link.url.pathname).replace(/\.jsonl$/, "") || "transcript"),
    ...(link.id && link.kind !== "file" ? { remote: { base: link.base, id: link.id } } : {}),
    close,
  };
}

/** Streams the link's answer into `file`, within the relay's own upload bound and the timeout. */
async function download(
  link: RemoteLink,
  env: Record<string, string | undefined>,
  timeoutMs: number,
  file: string,
): Promise<void> {
  const maxBytes = transcriptLimits(env).uploadBytes;
  const token = link.auth ? env.ACP_PLAYGROUND_TOKEN : undefined;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), timeoutMs);
  };
  const timedOut = () => new SourceError(`${link.url.origin} sent nothing for ${timeoutMs / 1000} s`);
  arm();
  try {
    let url = link.url;
    let res: Response;
    for (let hops = 0; ; hops++) {
      try {
        res = await fetch(url, {
          redirect: "manual",
          signal: controller.signal,
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
      } catch (err) {
        if (controller.signal.aborted) throw timedOut();
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        throw new SourceError(`cannot reach ${url.origin}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
      }
      if (res.status < 300 || res.status >= 400) break;
      await res.body?.cancel();
      const location = res.headers.get("location");
      const next = location === null ? undefined : urlOf(location, url);
      if (!next || (next.protocol !== "http:" && next.protocol !== "https:"))
        throw new SourceError(`HTTP ${res.status}: a redirect with no http(s) location`);
      // A relay's link stays on the origin named on the command line: the token goes nowhere else.
      if (next.origin !== url.origin && link.kind !== "file")
        throw new SourceError(
          `the server redirected to ${next.origin}${next.pathname}, another origin: not followed` +
            `${token ? " (it would be sent the token)" : ""}; name that link if you trust it`,
        );
      if (hops >= MAX_REDIRECTS) throw new SourceError(`more than ${MAX_REDIRECTS} redirects`);
      url = next;
    }
    arm();
    if (res.status !== 200) throw new SourceError(await refusal(res, link, token));
    const type = res.headers.get("content-type") ?? "";
    if (/^text\/html\b/i.test(type)) {
      await res.body?.cancel();
      throw new SourceError("not a transcript: the server answered with an HTML page");
    }
    const declared = Number(res.headers.get("content-length"));
    if (declared > maxBytes) {
      await res.body?.cancel();
      throw tooLarge(maxBytes);
    }
    const fd = openSync(file, "wx", PRIVATE_FILE);
    try {
      let size = 0;
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (controller.signal.aborted) throw timedOut();
          throw new SourceError(`the download was cut short: ${(err as Error).message}`);
        }
        if (chunk.done) break;
        arm();
        size += chunk.value.length;
        if (size > maxBytes) {
          await reader.cancel();
          throw tooLarge(maxBytes);
        }
        writeSync(fd, chunk.value);
      }
    } finally {
      closeSync(fd);
    }
  } finally {
    clearTimeout(timer);
  }
}

function urlOf(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

function tooLarge(maxBytes: number): SourceError {
  return new SourceError(
    `larger than the ${maxBytes} bytes a relay takes as a transcript (ACP_PLAYGROUND_UPLOAD_MAX_BYTES): not read`,
  );
}

/** What a refused request means to the person who named the link. */
async function refusal(res: Response, link: RemoteLink, token: string | undefined): Promise<string> {
  const text = await head(res);
  let message = text.replace(/\s+/g, " ").trim().slice(0, 300);
  try {
    message = (JSON.parse(text) as { error: { message: string } }).error.message;
  } catch {
    // not the API's error body: shown as it came
  }
  // Only a library link is sent the token: another link that wants one is not a transcript's.
  if (res.status === 401 && link.kind !== "transcript")
    return `HTTP 401: ${message} (only a /transcripts/ID link is sent the token in ACP_PLAYGROUND_TOKEN)`;
  if (res.status === 401)
    return token
      ? "the server refused the token in ACP_PLAYGROUND_TOKEN"
      : "the server wants its token: set ACP_PLAYGROUND_TOKEN";
  if (res.status === 404 && link.kind === "share")
    return "no such shared transcript on that server (never shared, no longer shared, or a wrong share token)";
  if (res.status === 404 && link.kind === "transcript") return `no transcript ${link.id} on that server`;
  return `HTTP ${res.status}${res.status === 403 ? " (forbidden)" : ""}: ${message}`;
}

/** The first bytes of an answer, the rest left unread. */
async function head(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ERROR_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // what came is enough
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, ERROR_BODY_BYTES).toString("utf8");
}
