/**
 * JSON over HTTP for every route of the relay's and the team server's: a bounded request body
 * read with its schema, and the answer or the error sent back in one shape.
 */
import type { ServerResponse } from "node:http";
import type { z } from "zod";
import { parseWith } from "../../lib/protocol/contract";
import type { HttpErrorBody } from "../../lib/contracts/http-api";
import { fail, type Result } from "../../lib/protocol/result";

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

export const sendError = (res: ServerResponse, status: number, code: string, message: string) =>
  sendJson(res, status, { error: { code, message } } satisfies HttpErrorBody);

/**
 * A JSON request body parsed with its schema (lib/contracts/http-api.ts): at most `limit`
 * bytes; an empty body reads as `empty` when given. The error says what is wrong,
 * naming the field, for a 400.
 */
export async function readJsonBody<S extends z.ZodType>(
  req: AsyncIterable<unknown>,
  schema: S,
  limit: number,
  empty?: unknown,
): Promise<Result<z.output<S>>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return fail(`the body may be at most ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  let body: unknown = empty;
  if (empty === undefined || text.trim() !== "") {
    try {
      body = JSON.parse(text);
    } catch (err) {
      return fail(`the body is not JSON: ${(err as Error).message}`);
    }
  }
  return parseWith(schema, body);
}
