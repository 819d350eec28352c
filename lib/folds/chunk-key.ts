/**
 * What makes `session/update` chunk notifications one message (chunk folds, frame search
 * over the folded text, transcript alignment), and the text a chunk adds to it.
 */
import type { Frame } from "../protocol/frame";
import { isObject, str } from "../protocol/json";
import { CLIENT_METHODS } from "../protocol/methods";

function chunkUpdateOf(f: Frame): { params: Record<string, unknown>; update: Record<string, unknown> } | undefined {
  if (f.kind !== "notification" || f.dir !== "from-agent" || f.method !== CLIENT_METHODS.session_update)
    return undefined;
  const m = f.message;
  const params = isObject(m) && isObject(m.params) ? m.params : undefined;
  const update = params && isObject(params.update) ? params.update : undefined;
  if (!update || !str(update.sessionUpdate)?.endsWith("_chunk")) return undefined;
  return { params: params!, update };
}

/** What makes chunks belong together; undefined for a frame that is not a chunk. */
export function chunkKeyOf(f: Frame): { sessionId: string; kind: string; of?: string } | undefined {
  const chunk = chunkUpdateOf(f);
  if (!chunk) return undefined;
  const { params, update } = chunk;
  return {
    sessionId: str(params.sessionId) ?? "",
    kind: str(update.sessionUpdate)!,
    of: str(update.messageId) ?? str(update.toolCallId) ?? str(update.terminalId),
  };
}

/** Whether two chunk keys are of one message. */
export const sameChunkKey = (a: ReturnType<typeof chunkKeyOf>, b: ReturnType<typeof chunkKeyOf>): boolean =>
  !!a && !!b && a.sessionId === b.sessionId && a.kind === b.kind && a.of === b.of;

/** The text a chunk adds to its message (`content.text`); "" for a chunk of anything else. */
export function chunkTextOf(f: Frame): string {
  const content = chunkUpdateOf(f)?.update.content;
  return isObject(content) && typeof content.text === "string" ? content.text : "";
}
