/**
 * `acp-playground validate FILE...`: judges recorded traffic (transcripts, tapped
 * conversations, raw NDJSON captures of either side) by lib/features/library/validate-report.ts;
 * exits 1 when a MANDATORY requirement fails, so it can gate CI.
 */
import { closeSync, openSync, readFileSync, readSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { isObject } from "../../lib/protocol/json";
import { LineSplitter, type LineEvent } from "../../lib/protocol/ndjson";
import type { FrameDirection } from "../../lib/protocol/frame";
import { TRANSCRIPT_FORMAT, type TranscriptEvent, type TranscriptHeader } from "../../lib/contracts/transcript";
import { TranscriptLines, type TranscriptLine } from "../../lib/contracts/transcript-lines";
import {
  captureSide,
  recordingFromCapture,
  recordingFromTranscript,
  reportToJson,
  reportToJUnit,
  reportToText,
  validateRecording,
  validateReport,
  type Recording,
  type RecordingSchemas,
} from "../../lib/features/library/validate-report";
import { descriptorOf, protocolOf } from "../../lib/protocol/protocols";
import {
  createAppServerSchema,
  type AppServerSchema,
  type AppServerSchemaFile,
} from "../../lib/protocol/schema-app-server";
import { schemaSet } from "../agents/client-services";
import { CliError, readErrorText } from "./cli-error";
import { argumentError, outputFormat, outputPath } from "./cli-options";
import { commandUsage } from "./cli-usage";
import { openInput, type Source } from "./transcript-source";

/** A capture's lines may be long (a whole file read back): far above the relay's default. */
const CAPTURE_MAX_LINE_BYTES = 256 * 1024 * 1024;
const READ_CHUNK = 1024 * 1024;

/** Bad lines named in one error; the rest are counted. */
const MAX_BAD_LINES = 20;

function isTranscript(bytes: Buffer): boolean {
  const nl = bytes.indexOf(0x0a);
  const first = bytes.subarray(0, nl === -1 ? bytes.length : nl).toString();
  try {
    const value: unknown = JSON.parse(first);
    return isObject(value) && value.type === "header" && value.format === TRANSCRIPT_FORMAT;
  } catch {
    return false;
  }
}

function cannotRead(file: string, err: unknown): CliError {
  return new CliError(`cannot read ${file}: ${readErrorText(err)}`, 4);
}

/**
 * A transcript read in chunks by the one reader (lib/contracts/transcript-lines.ts): memory holds
 * its events and one line. Every bad line is named (up to MAX_BAD_LINES), not only the first.
 */
function loadTranscript(file: string, fd: number, first: Buffer): Recording {
  const reader = new TranscriptLines();
  const events: TranscriptEvent[] = [];
  let header: TranscriptHeader | undefined;
  const bad: string[] = [];
  const take = (lines: TranscriptLine[]) => {
    for (const { value, error } of lines) {
      if (error) bad.push(error.message);
      else if (value.type === "header") header = value;
      else events.push(value);
    }
  };
  take(reader.push(first));
  const chunk = Buffer.alloc(READ_CHUNK);
  for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) take(reader.push(chunk.subarray(0, n)));
  take(reader.end());
  if (bad.length > 0 || !header) {
    const more = bad.length > MAX_BAD_LINES ? [`and ${bad.length - MAX_BAD_LINES} more bad lines`] : [];
    throw new CliError(
      `${file}: not a valid transcript:\n${[...bad.slice(0, MAX_BAD_LINES), ...more].map((l) => `  ${l}`).join("\n")}`,
      4,
    );
  }
  return recordingFromTranscript(file, { header, events, truncated: reader.truncated });
}

/** Reads `source.file`; messages and the report call it `source.name` (a link's, for a download). */
function load(source: Source, side: FrameDirection | undefined): Recording {
  const { file, name } = source;
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (err) {
    throw cannotRead(name, err);
  }
  try {
    // The first line says what the file is (a transcript's header), read up to 1 MiB.
    const head = Buffer.alloc(READ_CHUNK);
    const n = readSync(fd, head);
    const first = head.subarray(0, n);
    // Nothing recorded is nothing to judge, not a conformant recording (a capture that failed, a wrong file).
    if (n === 0) throw new CliError(`${name}: empty file: nothing to judge`, 4);
    if (isTranscript(first)) return loadTranscript(name, fd, first);
    const splitter = new LineSplitter(CAPTURE_MAX_LINE_BYTES);
    const lines: LineEvent[] = [...splitter.push(Buffer.concat([first, readFileSync(fd)])), ...splitter.end()];
    return recordingFromCapture(name, lines, side ?? captureSide(lines));
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw cannotRead(name, err);
  } finally {
    closeSync(fd);
  }
}

/** The app-server's schema (lib/protocol/app-server-schema.json), read only when a recording speaks it. */
async function appServerSchema(): Promise<AppServerSchema> {
  const file = (await import("../../lib/protocol/app-server-schema.json")).default;
  return createAppServerSchema(file as AppServerSchemaFile);
}

async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        format: { type: "string" },
        json: { type: "boolean" },
        side: { type: "string" },
        output: { type: "string", short: "o" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new CliError(`${argumentError(err)}\n\n${commandUsage("validate")}`, 2);
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) throw new CliError(`needs at least one file\n\n${commandUsage("validate")}`, 2);
  const format = outputFormat(values, ["text", "json", "junit"], "text");
  if (values.side !== undefined && values.side !== "agent" && values.side !== "client")
    throw new CliError(`--side must be agent or client, not "${values.side}"`, 2);
  const side: FrameDirection | undefined =
    values.side === undefined ? undefined : values.side === "agent" ? "from-agent" : "to-agent";
  if (values.output !== undefined) outputPath(values.output);
  const sources: Source[] = [];
  try {
    for (const arg of positionals) sources.push(await openInput(arg));
    return await judge(
      sources.map((s) => load(s, side)),
      format,
      values.output,
    );
  } finally {
    for (const s of sources) s.close();
  }
}

/** The report over every recording, written out; the exit code is its verdict's. */
async function judge(recordings: Recording[], format: string, output: string | undefined): Promise<number> {
  const schemas: RecordingSchemas = { acp: schemaSet() };
  if (recordings.some((r) => descriptorOf(protocolOf(r)).schema === "appServer"))
    schemas.appServer = await appServerSchema();
  const files = recordings.map((r) => validateRecording(r, schemas));
  const report = validateReport(files);
  const text =
    format === "json" ? reportToJson(report) : format === "junit" ? reportToJUnit(report) : reportToText(report);
  if (typeof output === "string") {
    writeFileSync(output, text);
    process.stdout.write(`${report.verdict}: wrote ${output}\n`);
  } else await new Promise<void>((resolve, reject) => process.stdout.write(text, (e) => (e ? reject(e) : resolve())));
  return report.verdict === "CONFORMANT" ? 0 : 1;
}

export async function validateMain(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    process.stderr.write(`acp-playground validate: ${err.message}\n`);
    return err.exitCode;
  }
}
