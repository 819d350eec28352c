/**
 * ACP-BATCH-201..205 (acp-tck v2 test_batch.py): each batch on a fresh connection, after a v2
 * initialize, since a batch line is what a less tried agent may crash on.
 */
import type { CheckResult } from "../../contracts/requirements";
import { isObject } from "../../protocol/json";
import { isAgentInitiated, messagesOf, withConnection, type Entry, type V2Connection } from "./connection";
import { initialize, type Ctx } from "./setup";
import { fail, pass, show, skip } from "./turn-checks";

const INVALID_REQUEST = -32600;

/** The agent's next line that is not one of its own requests or notifications. */
async function nextReply(conn: V2Connection, ms: number): Promise<Entry | undefined> {
  const deadline = performance.now() + ms;
  for (;;) {
    const e = await conn.next(deadline - performance.now());
    if (!e || !isAgentInitiated(e)) return e;
  }
}

const invalidRequest = (m: unknown) =>
  isObject(m) && m.id === null && isObject(m.error) && m.error.code === INVALID_REQUEST;

async function batch(ctx: Ctx, body: (conn: V2Connection) => Promise<CheckResult[]>): Promise<CheckResult[] | string> {
  return withConnection(ctx.connect, async (conn) => {
    const { mismatch } = await initialize(ctx, conn);
    return mismatch ?? body(conn);
  });
}

export async function batchChecks(ctx: Ctx): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const run = async (ids: string[], body: (conn: V2Connection) => Promise<CheckResult[]>) => {
    const r = await batch(ctx, body);
    out.push(...(typeof r === "string" ? ids.map((id) => skip(id, r)) : r));
  };

  await run(["ACP-BATCH-201"], async (conn) => {
    conn.sendRaw("[]");
    const e = await nextReply(conn, ctx.timeoutMs);
    if (!e) return [fail("ACP-BATCH-201", `no reply to [] within ${ctx.timeoutMs} ms`)];
    return [
      invalidRequest(e.parsed)
        ? pass("ACP-BATCH-201", "[] got one -32600 object with id null")
        : fail("ACP-BATCH-201", `[] got ${e.raw.slice(0, 160)}`),
    ];
  });

  await run(["ACP-BATCH-202"], async (conn) => {
    conn.sendRaw(JSON.stringify([{ jsonrpc: "2.0", method: "_playground/notify_only" }]));
    const e = await nextReply(conn, ctx.quietMs);
    return [
      e
        ? fail("ACP-BATCH-202", `a notification-only batch got a reply: ${e.raw.slice(0, 160)}`)
        : pass("ACP-BATCH-202", `no reply within ${ctx.quietMs} ms`),
    ];
  });

  await run(["ACP-BATCH-203"], async (conn) => {
    conn.sendRaw("[17,true,null]");
    const got: unknown[] = [];
    const deadline = performance.now() + ctx.timeoutMs;
    while (got.length < 3) {
      const e = await nextReply(conn, deadline - performance.now());
      if (!e) break;
      if (Array.isArray(e.parsed)) got.push(...(e.parsed as unknown[]));
      else got.push(e.parsed);
    }
    if (got.length !== 3 || !got.every(invalidRequest))
      return [fail("ACP-BATCH-203", `3 invalid entries got ${got.length} answer(s): ${show(got)}`)];
    const { response } = await conn.call("session/list", {}, ctx.timeoutMs);
    return [
      response
        ? pass("ACP-BATCH-203", "one -32600 per invalid entry, and a request after it was answered")
        : fail("ACP-BATCH-203", "after the invalid batch, session/list got no answer"),
    ];
  });

  await run(["ACP-BATCH-204", "ACP-BATCH-205"], async (conn) => {
    const ids = ["playground-batch-a", "playground-batch-b"];
    conn.sendRaw(JSON.stringify(ids.map((id) => ({ jsonrpc: "2.0", id, method: "session/list", params: {} }))));
    const e = await nextReply(conn, ctx.timeoutMs);
    const reply = e?.parsed;
    if (!Array.isArray(reply) || reply.length !== 2) {
      const why = `two batched requests got ${e ? e.raw.slice(0, 160) : "no reply"}, not one array of two`;
      return [fail("ACP-BATCH-204", why), fail("ACP-BATCH-205", why)];
    }
    const byId = new Map(messagesOf(e!).map((m) => [m.id, m]));
    const missing = ids.filter((id) => !isObject(byId.get(id)) || !("result" in byId.get(id)!));
    return [
      pass("ACP-BATCH-204", "one array with both responses"),
      missing.length
        ? fail("ACP-BATCH-205", `matched by id, ${missing.join(", ")} has no result`)
        : pass("ACP-BATCH-205", "both responses matched by id"),
    ];
  });
  return out;
}
