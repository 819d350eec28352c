/**
 * `acp-playground validate FILE...`: judges recorded traffic (transcripts, tapped
 * conversations, raw NDJSON captures of either side) by lib/features/validate-report.ts;
 * exits 1 when a MANDATORY requirement fails, so it can gate CI.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { isObject } from "../../lib/protocol/json";
import { LineSplitter, type LineEvent } from "../../lib/protocol/ndjson";
import type { FrameDirection } from "../../lib/protocol/frame";
import { parseTranscript, TRANSCRIPT_FORMAT, TranscriptError } from "../../lib/contracts/transcript";
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
} from "../../lib/features/validate-report";
import { descriptorOf, protocolOf } from "../../lib/protocol/protocols";
import {
  createAppServerSchema,
  type AppServerSchema,
  type AppServerSchemaFile,
} from "../../lib/protocol/schema-app-server";
import { schemaSet } from "../agents/client-services";
import { CliError } from "./cli-error";
import { outputFormat } from "./cli-options";
import { commandUsage } from "./cli-usage";

/** A capture's lines may be long (a whole file read back): far above the relay's default. */
const CAPTURE_MAX_LINE_BYTES = 256 * 1024 * 1024;

function isTranscript(bytes: Buffer): boolean {
  const nl = bytes.indexOf(0x0a);
  const first = bytes.subarray(0, nl === -1 ? Math.min(bytes.length, 1 << 20) : Math.min(nl, 1 << 20)).toString();
  try {
    const value: unknown = JSON.parse(first);
    return isObject(value) && value.type === "header" && value.format === TRANSCRIPT_FORMAT;
  } catch {
    return false;
  }
}

function load(file: string, side: FrameDirection | undefined): Recording {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 4);
  }
  if (isTranscript(bytes)) {
    try {
      return recordingFromTranscript(file, parseTranscript(bytes.toString("utf8")));
    } catch (err) {
      if (err instanceof TranscriptError) throw new CliError(`${file}: ${err.message}`, 4);
      throw err;
    }
  }
  const splitter = new LineSplitter(CAPTURE_MAX_LINE_BYTES);
  const lines: LineEvent[] = [...splitter.push(bytes), ...splitter.end()];
  return recordingFromCapture(file, lines, side ?? captureSide(lines));
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
    throw new CliError(`${(err as Error).message}\n\n${commandUsage("validate")}`, 2);
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0)
    throw new CliError(`validate needs at least one file\n\n${commandUsage("validate")}`, 2);
  const format = outputFormat(values, ["text", "json", "junit"], "text");
  if (values.side !== undefined && values.side !== "agent" && values.side !== "client")
    throw new CliError(`--side must be agent or client, not "${values.side}"`, 2);
  const side: FrameDirection | undefined =
    values.side === undefined ? undefined : values.side === "agent" ? "from-agent" : "to-agent";
  const recordings = positionals.map((file) => load(file, side));
  const schemas: RecordingSchemas = { acp: schemaSet() };
  if (recordings.some((r) => descriptorOf(protocolOf(r)).schema === "appServer"))
    schemas.appServer = await appServerSchema();
  const files = recordings.map((r) => validateRecording(r, schemas));
  const report = validateReport(files);
  const text =
    format === "json" ? reportToJson(report) : format === "junit" ? reportToJUnit(report) : reportToText(report);
  if (typeof values.output === "string") {
    writeFileSync(values.output, text);
    process.stdout.write(`${report.verdict}: wrote ${values.output}\n`);
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
