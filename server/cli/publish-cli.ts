/**
 * `acp-playground publish FILE... --to URL`: uploads local recordings into a team server (one
 * running `serve --database`, or any relay) through its upload route, POST /api/transcripts,
 * with the server's token from ACP_PLAYGROUND_TOKEN (never on the command line, where `ps`
 * shows it). A FILE is a transcript file, the id of one in the local library, or a link to one
 * on a relay (server/cli/transcript-source.ts).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { TranscriptMeta } from "../../lib/contracts/transcript-meta";
import { dataDirFor } from "../runtime";
import { CliError } from "./cli-error";
import { argumentError } from "./cli-options";
import { commandUsage } from "./cli-usage";
import { nameOf, openSource } from "./transcript-source";

/** The bytes to send for FILE. */
async function bytesOf(arg: string, env: Record<string, string | undefined>, dataDir: string): Promise<Buffer> {
  const source = await openSource(arg, { env, dataDir });
  try {
    return readFileSync(source.file);
  } finally {
    source.close();
  }
}

export async function publishMain(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  log: (line: string) => void = (l) => console.log(l),
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { to: { type: "string" }, data: { type: "string" } },
    });
  } catch (err) {
    throw new CliError(`publish: ${argumentError(err)}\n\n${commandUsage("publish")}`, 2);
  }
  const { values, positionals: files } = parsed;
  if (files.length === 0) throw new CliError(`publish: name at least one FILE\n\n${commandUsage("publish")}`, 2);
  let base: URL;
  try {
    base = new URL(values.to ?? "");
  } catch {
    throw new CliError(`publish: --to must be the team server's URL\n\n${commandUsage("publish")}`, 2);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:")
    throw new CliError("publish: --to must be an http:// or https:// URL", 2);
  const token = env.ACP_PLAYGROUND_TOKEN;
  if (!token) throw new CliError("publish: set ACP_PLAYGROUND_TOKEN to the team server's token", 2);
  const dataDir = values.data ?? dataDirFor(env, process.cwd());
  const upload = new URL("api/transcripts", base.href.endsWith("/") ? base : `${base.href}/`);

  let failed = 0;
  for (const file of files) {
    try {
      const body = await bytesOf(file, env, dataDir);
      const res = await fetch(upload, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
        body: new Uint8Array(body),
      }).catch((err: Error & { cause?: Error }) => {
        // fetch says only "fetch failed": why is in its cause (a refused connection, an unknown host).
        throw new Error(`cannot reach ${base.origin}: ${err.cause?.message ?? err.message}`);
      });
      const text = await res.text();
      if (res.status !== 201) {
        let message = text.slice(0, 500);
        try {
          message = (JSON.parse(text) as { error: { message: string } }).error.message;
        } catch {
          // not the API's error body: shown as it came
        }
        throw new Error(`${res.status === 401 ? "the token was refused" : `HTTP ${res.status}`}: ${message}`);
      }
      const meta = JSON.parse(text) as TranscriptMeta;
      const seen = new URL(`transcripts/${meta.id}`, upload.href.replace(/api\/transcripts$/, ""));
      log(
        `${nameOf(file)}: published as ${seen.href}${meta.duplicateOf ? ` (the same file as ${meta.duplicateOf.id})` : ""}`,
      );
    } catch (err) {
      failed++;
      log(`${nameOf(file)}: not published: ${(err as Error).message}`);
    }
  }
  return failed === 0 ? 0 : 1;
}
