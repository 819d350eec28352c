/**
 * `acp-playground mcp`: the transcript library over MCP (stdio, the official SDK), for agents
 * to read: list and search transcripts, read a turn or a range of frames, a transcript's
 * insights and latency table, and the diff of two. Read-only, and redacted as a share link is:
 * the command line, the workspace and home paths hidden, and every line redacted again with
 * this machine's secrets (as the HTML export is). The search index is brought up to date in
 * the background, a slice at a time, so the first answers do not wait for a large library.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { searchQuery, libraryFilter } from "../../lib/contracts/library-search";
import { createRedactor, secretsFromEnv } from "../../lib/features/library/redact";
import { insightsOf } from "../../lib/features/library/insights";
import { alignTranscripts, framesOfTurn, turnRanges } from "../../lib/features/compare/transcript-align";
import { methodLatency } from "../../lib/folds/method-latency";
import type { Frame } from "../../lib/protocol/frame";
import { protocolOf } from "../../lib/protocol/protocols";
import { SearchIndex } from "../transcripts/search-index";
import { HIDDEN_WORKSPACE, localPaths } from "../transcripts/local-paths";
import { TranscriptStore } from "../transcripts/transcript-store";
import { VERSION } from "../version";
import { dataDirFor } from "../runtime";
import { dataDirProblem } from "../config-env";
import { CliError } from "./cli-error";
import { cutNote, MAX_READ_BYTES, readFrames, ToolError, type ReadOptions } from "./mcp-read";

/** Frames one read returns at most, and characters of one frame's message shown whole. */
const MAX_FRAMES = 200;
const MAX_FRAME_CHARS = 16 * 1024;
const MAX_DIFF_ROWS = 200;

/** A frame for a reader: its message (or the start of it, when long) and what the relay knew. */
function shown(f: Frame) {
  const long = f.raw.length > MAX_FRAME_CHARS;
  return {
    seq: f.seq,
    ts: f.ts,
    dir: f.dir,
    kind: f.kind,
    ...(f.method ? { method: f.method } : {}),
    ...(f.latencyMs !== undefined ? { latencyMs: f.latencyMs } : {}),
    ...(f.requestSeq !== undefined ? { requestSeq: f.requestSeq } : {}),
    ...(long || f.message === undefined
      ? { raw: f.raw.slice(0, MAX_FRAME_CHARS), ...(long ? { truncated: f.raw.length } : {}) }
      : { message: f.message }),
  };
}

const json = (value: unknown) => ({ content: [{ type: "text" as const, text: JSON.stringify(value, null, 2) }] });
const failure = (err: unknown) => {
  if (!(err instanceof ToolError)) throw err;
  return { isError: true, content: [{ type: "text" as const, text: err.message }] };
};
const id = z.string().describe("a transcript id, as list_transcripts or search_transcripts give it");

export interface LibraryServerOptions {
  store: TranscriptStore;
  index: SearchIndex;
  /** Values redacted wherever they appear (the environment's secrets). */
  secrets: string[];
  /** Bytes of one transcript one call reads at most (MAX_READ_BYTES). */
  maxReadBytes?: number;
  /** True while the index is still catching up with the library (a search then says how far it got). */
  catchingUp?: () => boolean;
}

/** The MCP server over one library (not yet connected to a transport). */
export function createLibraryServer({
  store,
  index,
  secrets,
  maxReadBytes = MAX_READ_BYTES,
  catchingUp = () => false,
}: LibraryServerOptions): McpServer {
  const redactor = createRedactor(secrets);
  const loadFrames = (id: string, options: ReadOptions = {}) =>
    readFrames(store, id, redactor, { maxBytes: maxReadBytes, ...options });
  const cutOf = (what: string, read: { cut?: Parameters<typeof cutNote>[1] }) =>
    read.cut ? { cut: cutNote(what, read.cut) } : {};
  const server = new McpServer(
    { name: "acp-playground-library", version: VERSION },
    {
      instructions:
        "Recorded Agent Client Protocol sessions (JSON-RPC frames between a client and a coding agent). Find transcripts with list_transcripts or search_transcripts, then read_turn / read_frames by seq; transcript_insights says what to look at first.",
    },
  );
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
  const guard =
    <A>(fn: (args: A) => Promise<ReturnType<typeof json>> | ReturnType<typeof json>) =>
    async (args: A) => {
      try {
        return await fn(args);
      } catch (err) {
        return failure(err);
      }
    };

  server.registerTool(
    "list_transcripts",
    {
      title: "List transcripts",
      description: "The library's transcripts, newest first: id, title, date, profile, agent, kind, turns, frames.",
      inputSchema: {
        ...libraryFilter.shape,
        title: z.string().max(200).optional().describe("only titles containing this (any case)"),
        limit: z.number().int().min(1).max(500).optional(),
      },
      annotations: readOnly,
    },
    guard((a) => {
      const title = a.title?.toLowerCase();
      const list = store
        .list()
        .filter(
          (m) =>
            (!a.agent || m.agentName === a.agent) &&
            (!a.profile || m.profile === a.profile) &&
            (!a.kind || m.kind === a.kind) &&
            (!a.from || m.createdAt.slice(0, 10) >= a.from) &&
            (!a.to || m.createdAt.slice(0, 10) <= a.to) &&
            (!title || m.title.toLowerCase().includes(title)),
        )
        .slice(0, a.limit ?? 100)
        .map(({ id, title, createdAt, profile, agentName, kind, turns, frames, bytes, recording }) => ({
          id,
          title,
          createdAt,
          profile,
          agentName,
          kind,
          turns,
          frames,
          bytes,
          recording,
        }));
      return json({ transcripts: list });
    }),
  );

  server.registerTool(
    "search_transcripts",
    {
      title: "Search transcripts",
      description:
        "Full-text search over every transcript's messages, thoughts, prompts, tool calls (titles, arguments, paths), errors and stderr. Each hit names its transcript and frame seq, with the matching line. Words must all match; quote a phrase.",
      inputSchema: searchQuery.shape,
      annotations: readOnly,
    },
    guard((q) => {
      const answer = { ...index.search(q), ...(catchingUp() ? { progress: index.progress() } : {}) };
      // Lines come from files already redacted: hidden here as a share page hides them, and this machine's secrets too.
      const hiders = new Map<string, (text: string) => string>();
      const hide = (id: string) => {
        let h = hiders.get(id);
        if (!h) hiders.set(id, (h = localPaths(store.workspaceOf(id))));
        return h;
      };
      return json({
        ...answer,
        hits: answer.hits.map((h) => ({
          ...h,
          line: redactor.text(hide(h.transcript.id)(h.line)).text,
          marks: undefined,
        })),
      });
    }),
  );

  server.registerTool(
    "read_frames",
    {
      title: "Read frames",
      description: `Frames from seq \`from\` to \`to\` (at most ${MAX_FRAMES}) of one transcript, each with its JSON-RPC message.`,
      inputSchema: { id, from: z.number().int().min(1).default(1), to: z.number().int().min(1).optional() },
      annotations: readOnly,
    },
    guard(async (a) => {
      const to = Math.min(a.to ?? a.from + MAX_FRAMES - 1, a.from + MAX_FRAMES - 1);
      // Read from `from` (the file is entered near it) to `to`, and no further.
      const read = await loadFrames(a.id, { fromSeq: a.from, done: (f) => f.seq > to });
      const range = read.frames;
      const reached = range.at(-1)?.seq ?? a.from - 1;
      const known = store.meta(a.id)?.frames ?? 0;
      const last = Math.max(known, reached);
      const next = read.cut ? Math.max(a.from, reached + 1) : to < last ? to + 1 : undefined;
      return json({
        frames: range.map(shown),
        lastSeq: last,
        ...(next !== undefined ? { next } : {}),
        ...cutOf(`transcript ${a.id}`, read),
      });
    }),
  );

  server.registerTool(
    "read_turn",
    {
      title: "Read a turn",
      description: `One prompt turn (from 1) of a transcript: its frames from the prompt to the answer (at most ${MAX_FRAMES}), and the list of turns.`,
      inputSchema: { id, turn: z.number().int().min(1) },
      annotations: readOnly,
    },
    guard(async (a) => {
      const read = await loadFrames(a.id);
      const { frames } = read;
      const turns = turnRanges(frames, protocolOf(read));
      const turn = turns[a.turn - 1];
      if (!turn)
        throw new ToolError(
          read.cut
            ? `${cutNote(`transcript ${a.id}`, read.cut)} It has ${turns.length} turn(s) in what was read.`
            : `transcript ${a.id} has ${turns.length} turn(s)`,
        );
      const inTurn = framesOfTurn(frames, turn);
      return json({
        turn: { number: a.turn, firstSeq: turn.firstSeq, lastSeq: turn.lastSeq, prompt: turn.prompt },
        turns: turns.length,
        frames: inTurn.slice(0, MAX_FRAMES).map(shown),
        ...(inTurn.length > MAX_FRAMES ? { more: inTurn.length - MAX_FRAMES } : {}),
        ...cutOf(`transcript ${a.id}`, read),
      });
    }),
  );

  server.registerTool(
    "transcript_insights",
    {
      title: "Transcript insights",
      description:
        "What to look at first in one transcript: broken protocol rules, errors by code, requests never answered, non-JSON-RPC output, retries, the slowest requests, turns spent waiting for the user, tokens per turn. Each item names its frames.",
      inputSchema: { id },
      annotations: readOnly,
    },
    guard(async (a) => {
      const read = await loadFrames(a.id);
      return json({
        insights: insightsOf(read.frames, { protocol: protocolOf(read) }),
        ...cutOf(`transcript ${a.id}`, read),
      });
    }),
  );

  server.registerTool(
    "latency_table",
    {
      title: "Latency per method",
      description:
        "Count, p50, p95, p99, max and errors per method and direction: of one transcript (`id`), else across the library (filtered by agent, profile, kind and dates).",
      inputSchema: { ...libraryFilter.shape, id: id.optional() },
      annotations: readOnly,
    },
    guard(async (a) => {
      if (a.id) {
        const read = await loadFrames(a.id);
        return json({ rows: methodLatency(read.frames), ...cutOf(`transcript ${a.id}`, read) });
      }
      const { id: _none, ...filter } = a;
      return json(index.latency(filter));
    }),
  );

  server.registerTool(
    "diff_transcripts",
    {
      title: "Diff two transcripts",
      description:
        "Aligns two transcripts step by step (direction, method and message shape, longest common subsequence) and lists inserted, removed and changed steps with the fields that differ.",
      inputSchema: { a: id, b: id },
      annotations: readOnly,
    },
    guard(async ({ a, b }) => {
      // One after the other: a call holds at most one read in progress.
      const left = await loadFrames(a);
      const right = await loadFrames(b);
      const al = alignTranscripts(
        { frames: left.frames, cwd: HIDDEN_WORKSPACE, protocol: left.protocol },
        { frames: right.frames, cwd: HIDDEN_WORKSPACE, protocol: right.protocol },
      );
      const rows = al.rows
        .filter((r) => r.op !== "same")
        .slice(0, MAX_DIFF_ROWS)
        .map((r) => ({
          op: r.op,
          ...(r.a !== undefined ? { a: { seq: al.a[r.a]!.seq, step: al.a[r.a]!.label } } : {}),
          ...(r.b !== undefined ? { b: { seq: al.b[r.b]!.seq, step: al.b[r.b]!.label } } : {}),
          ...(r.fields ? { fields: r.fields } : {}),
        }));
      const cut = [left.cut && cutNote(`transcript ${a}`, left.cut), right.cut && cutNote(`transcript ${b}`, right.cut)]
        .filter(Boolean)
        .join(" ");
      return json({
        a: left.title,
        b: right.title,
        counts: al.counts,
        approximate: al.approximate,
        differences: rows,
        ...(cut ? { cut } : {}),
      });
    }),
  );

  return server;
}

/** Indexes the library a slice at a time between requests, until it is up to date; says whether it still is at it. */
function catchUp(index: SearchIndex): () => boolean {
  let ids: string[];
  try {
    ids = index.stale();
  } catch {
    return () => false;
  }
  const next = () => {
    const id = ids[0];
    if (id === undefined) {
      // Transcripts deleted while no index was open leave no trace either (stale() removed their rows).
      try {
        index.purge();
      } catch {
        // only an index: the next open tries again
      }
      return;
    }
    try {
      if (index.update(id, 2 * 1024 * 1024)) ids.shift();
    } catch {
      ids.shift();
    }
    setImmediate(next);
  };
  next();
  return () => ids.length > 0;
}

export async function mcpMain(argv: string[]): Promise<number> {
  const dataArg = argv.indexOf("--data");
  const dataDir = dataArg >= 0 && argv[dataArg + 1] ? argv[dataArg + 1]! : dataDirFor(process.env, process.cwd());
  const problem = dataDirProblem(dataDir);
  if (problem) throw new CliError(problem, 2);
  const store = new TranscriptStore(dataDir);
  const index = new SearchIndex(store.dir);
  let catchingUp = () => true;
  const server = createLibraryServer({
    store,
    index,
    secrets: secretsFromEnv(process.env),
    catchingUp: () => catchingUp(),
  });
  await server.connect(new StdioServerTransport());
  catchingUp = catchUp(index);
  // stdout is the protocol: anything else goes to stderr. The process ends when its client closes stdin.
  process.stdin.on("close", () => {
    index.close();
    process.exit(0);
  });
  return -1;
}
