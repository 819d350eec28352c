/**
 * Test fixtures: the lines a test's transcript is written with (docs/transcript-format.md). A test
 * names only what it looks at; the rest is this playground's format and version and an agent
 * started as `agent` in /w.
 */
import {
  serialize,
  serializeFrame,
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  type TranscriptHeader,
} from "../lib/contracts/transcript";
import type { TranscriptMeta } from "../lib/contracts/transcript-meta";

type HeaderFields = Partial<Omit<TranscriptHeader, "type" | "format" | "version" | "agent">> & {
  agent?: Partial<TranscriptHeader["agent"]>;
};

/** Line 0 of a transcript: id `x`, created now, unless `fields` say otherwise. */
export function testHeader({ agent, ...fields }: HeaderFields = {}): TranscriptHeader {
  return {
    type: "header",
    format: TRANSCRIPT_FORMAT,
    version: TRANSCRIPT_VERSION,
    id: "x",
    createdAt: new Date().toISOString(),
    playground: { version: "test" },
    ...fields,
    agent: { profile: "p", command: "agent", args: [], cwd: "/w", ...agent },
  };
}

/** A recording of one line after its header: the client's initialize request. */
export function initializeRecording(fields: HeaderFields = {}, ts = Date.now()): string {
  return (
    serialize(testHeader(fields)) +
    serializeFrame({
      seq: 1,
      ts,
      dir: "to-agent",
      kind: "request",
      method: "initialize",
      raw: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}',
    })
  );
}

/** A session/update notification of session `s` from the agent, but its seq and ts. */
export const sessionUpdate = (update: Record<string, unknown>) => ({
  dir: "from-agent" as const,
  kind: "notification" as const,
  method: "session/update",
  raw: JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update } }),
});

/** An agent_message_chunk of message `messageId` (chunks of one message join in search), at ts 1000 + seq. */
export const messageChunk = (seq: number, text: string, messageId = `m${seq}`): string =>
  serializeFrame({
    seq,
    ts: 1000 + seq,
    ...sessionUpdate({ sessionUpdate: "agent_message_chunk", messageId, content: { type: "text", text } }),
  });

/** A transcript's meta for a store's tests: titled `id`, created at `createdAt`, nothing counted. */
export const testMeta = (id: string, createdAt: string, recording = false): TranscriptMeta => ({
  id,
  title: id,
  createdAt,
  profile: "p",
  turns: 0,
  frames: 0,
  bytes: 0,
  redactions: 0,
  recording,
});

/** Line 0 of transcript `id` (titled `id`) created at `createdAt`, as a store keeps it: no newline. */
export const headerLine = (id: string, createdAt: string): string =>
  serialize(testHeader({ id, createdAt, title: id })).trimEnd();
