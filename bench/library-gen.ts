/**
 * The library benchmark's generated library (bench/library.ts, bench/index-profile.ts): transcripts
 * of prompt turns, streamed chunks, tool calls with paths and arguments, an error every ninth
 * turn, stderr, over a vocabulary with a long tail, each with its meta file as the store keeps one.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { serialize, serializeFrame, type TranscriptHeader } from "../lib/contracts/transcript";

// A vocabulary with a long tail, so common and rare words behave as in real text.
const WORDS = (
  "the a to of and in is it that for on with as this be are was by file function test error build " +
  "agent session prompt tool call update result request response permission read write terminal " +
  "config module import export class interface type const return async await promise value string number " +
  "server client relay frame transcript index search query filter latency method direction token usage"
).split(" ");
export const rare = (i: number) => `w${(i * 2654435761) % 100_000}`;
let rng = 42;
const rand = () => (rng = (rng * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const sentence = (n: number) => {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(rand() < 0.08 ? rare(Math.floor(rand() * 1e9)) : WORDS[Math.floor(rand() * rand() * WORDS.length)]!);
  return out.join(" ");
};

const AGENTS = [
  { profile: "gemini", name: "gemini-cli" },
  { profile: "claude", name: "claude-code" },
  { profile: "qwen", name: "qwen-code" },
];

/** One transcript of about `bytes` bytes: turns of a prompt, streamed chunks, tool calls, an error now and then. */
export function transcript(i: number, bytes: number): string {
  const agent = AGENTS[i % AGENTS.length]!;
  const created = Date.parse("2026-01-01T00:00:00Z") + i * 3_600_000;
  const header: TranscriptHeader = {
    type: "header",
    format: "acp-playground-transcript",
    version: "1.0",
    id: `bench-${i}`,
    createdAt: new Date(created).toISOString(),
    playground: { version: "bench" },
    agent: { profile: agent.profile, command: agent.profile, args: ["--acp"], cwd: "/work/project" },
  };
  let out = serialize(header);
  let seq = 0;
  let ts = created;
  const frame = (
    dir: "to-agent" | "from-agent",
    kind: "request" | "response" | "notification",
    method: string,
    message: object,
    latencyMs?: number,
  ) => {
    seq++;
    ts += 5;
    out += serializeFrame({
      seq,
      ts,
      dir,
      kind,
      method,
      raw: JSON.stringify({ jsonrpc: "2.0", ...message }),
      ...(latencyMs !== undefined ? { latencyMs } : {}),
    });
  };
  frame("to-agent", "request", "initialize", { id: 0, method: "initialize", params: { protocolVersion: 1 } });
  frame(
    "from-agent",
    "response",
    "initialize",
    { id: 0, result: { protocolVersion: 1, agentInfo: { name: agent.name } } },
    50 + (i % 200),
  );
  out += serialize({ type: "agent-info", ts, protocolVersion: 1, agentInfo: { name: agent.name } });
  frame("to-agent", "request", "session/new", {
    id: 1,
    method: "session/new",
    params: { cwd: "/work/project", mcpServers: [] },
  });
  frame("from-agent", "response", "session/new", { id: 1, result: { sessionId: `s${i}` } }, 20 + (i % 50));
  let id = 2;
  while (out.length < bytes) {
    const promptSeq = seq + 1;
    frame("to-agent", "request", "session/prompt", {
      id,
      method: "session/prompt",
      params: { sessionId: `s${i}`, prompt: [{ type: "text", text: sentence(12) }] },
    });
    for (let c = 0; c < 30; c++) {
      const update =
        c % 10 === 5
          ? {
              sessionUpdate: "tool_call",
              toolCallId: `t${seq}`,
              title: `Read src/${rare(seq)}.ts`,
              kind: "read",
              locations: [{ path: `/work/project/src/${rare(seq)}.ts` }],
              rawInput: { path: `src/${rare(seq)}.ts`, pattern: sentence(3) },
            }
          : {
              sessionUpdate: c % 7 === 0 ? "agent_thought_chunk" : "agent_message_chunk",
              // Each piece carries the space before it, as an agent streams text (else the words at
              // two chunks' edge are one word of the message they make).
              content: { type: "text", text: ` ${sentence(25)}` },
            };
      frame("from-agent", "notification", "session/update", {
        method: "session/update",
        params: { sessionId: `s${i}`, update },
      });
    }
    if (id % 9 === 0)
      frame(
        "from-agent",
        "response",
        "session/prompt",
        { id, error: { code: -32603, message: `Internal error: ${sentence(6)}` } },
        1000 + ((seq * 37) % 9000),
      );
    else
      frame(
        "from-agent",
        "response",
        "session/prompt",
        { id, result: { stopReason: "end_turn" } },
        1000 + ((seq * 37) % 9000),
      );
    if (promptSeq % 4 === 0) out += serialize({ type: "stderr", ts, text: `[warn] ${sentence(8)}\n` });
    id++;
  }
  out += serialize({ type: "lifecycle", ts, event: "exited", code: 0, signal: null });
  return out;
}

/** Writes `count` transcripts of `mb` MiB in all into `dir`; returns their bytes. */
export function writeLibrary(dir: string, count: number, mb: number): number {
  const per = Math.floor((mb * 1024 * 1024) / count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const text = transcript(i, per);
    total += Buffer.byteLength(text);
    const id = `2026${String(i).padStart(6, "0")}-bench-${i}`;
    writeFileSync(path.join(dir, `${id}.jsonl`), text, { mode: 0o600 });
    // Its meta, as the store keeps it beside every transcript (else the first list reads every file).
    const agent = AGENTS[i % AGENTS.length]!;
    const meta = {
      id,
      title: `bench ${i}`,
      createdAt: new Date(Date.parse("2026-01-01T00:00:00Z") + i * 3_600_000).toISOString(),
      profile: agent.profile,
      agentName: agent.name,
      kind: "session",
      turns: 0,
      frames: 0,
      bytes: Buffer.byteLength(text),
      redactions: 0,
      recording: false,
    };
    writeFileSync(path.join(dir, `${id}.meta.json`), JSON.stringify(meta), { mode: 0o600 });
  }
  return total;
}
