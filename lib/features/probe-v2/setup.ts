/**
 * What every v2 probe scenario starts with: its context, a v2 initialize and a new session.
 */
import { isObject } from "../../protocol/json";
import type { Msg, V2Connect, V2Connection } from "./connection";
import { show } from "./turn-checks";

export interface Ctx {
  connect: V2Connect;
  cwd: string;
  timeoutMs: number;
  quietMs: number;
  clientInfo: { name: string; version: string };
}

/** initialize asking for version 2; the result, or why v2 was not negotiated. */
export async function initialize(ctx: Ctx, conn: V2Connection): Promise<{ init?: Msg; mismatch?: string }> {
  const { response } = await conn.call(
    "initialize",
    { protocolVersion: 2, info: ctx.clientInfo, capabilities: {} },
    ctx.timeoutMs,
  );
  if (!response) return { mismatch: `no initialize answer within ${ctx.timeoutMs} ms` };
  if (!isObject(response.result)) return { mismatch: `initialize failed: ${show(response.error)}` };
  if (response.result.protocolVersion !== 2)
    return { mismatch: `the agent negotiated protocolVersion ${show(response.result.protocolVersion)}, not 2` };
  return { init: response.result };
}

/** A fresh connection, initialized for v2, with a new session; undefined when either failed. */
export async function openSession(ctx: Ctx, conn: V2Connection): Promise<string | undefined> {
  const { init } = await initialize(ctx, conn);
  if (!init) return undefined;
  const { response } = await conn.call("session/new", { cwd: ctx.cwd, mcpServers: [] }, ctx.timeoutMs);
  const id = isObject(response?.result) ? response.result.sessionId : undefined;
  return typeof id === "string" ? id : undefined;
}
