/**
 * `acp-playground export --otlp URL FILE...`: recordings as OpenTelemetry GenAI traces (docs/otel.md).
 * Its own module, called from cli.ts's export command when an --otlp flag is given.
 */
import { randomUUID } from "node:crypto";
import { accessSync, constants } from "node:fs";
import { parseArgs } from "node:util";
import { TranscriptError } from "../../lib/contracts/transcript";
import { createRedactor, secretsFromEnv } from "../../lib/features/library/redact";
import { exportRecording } from "../otel/export-recording";
import { headersOf, OtlpExportError, OtlpSender, protocolOf, tracesUrl, type OtlpTarget } from "../otel/otlp-sender";
import { CliError } from "./cli-error";
import { argumentError } from "./cli-options";
import { commandUsage } from "./cli-usage";
import { openInput, type Source } from "./transcript-source";

const SERVE_FLAGS = new Set(["--otlp", "--otlp-header", "--otlp-protocol", "--otlp-content"]);

/**
 * serve's --otlp flags (before any \`--\`), taken out of argv and handed to the relay as the
 * ACP_PLAYGROUND_OTLP* variables it reads (server/otel/live-export.ts). Throws CliError (2) on bad input.
 */
export function takeServeOtlpFlags(argv: string[], env: Record<string, string | undefined> = process.env): string[] {
  const rest: string[] = [];
  const headers: string[] = [];
  const flags: { otlp?: string; "otlp-protocol"?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!SERVE_FLAGS.has(name)) {
      rest.push(arg);
      continue;
    }
    if (name === "--otlp-content") {
      env.ACP_PLAYGROUND_OTLP_CONTENT = "1";
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new CliError(`${name} needs a value\n\n${commandUsage("serve")}`, 2);
    if (name === "--otlp-header") headers.push(value);
    else if (name === "--otlp") flags.otlp = value;
    else flags["otlp-protocol"] = value;
  }
  if (flags.otlp === undefined && !headers.length && flags["otlp-protocol"] === undefined) return rest;
  // Checked now, so a typo fails at start and not at the first span.
  const target = otlpTarget({ ...flags, "otlp-header": headers }, env);
  env.ACP_PLAYGROUND_OTLP = target.url;
  env.ACP_PLAYGROUND_OTLP_PROTOCOL = target.protocol;
  if (headers.length) env.ACP_PLAYGROUND_OTLP_HEADERS = JSON.stringify(headers);
  return rest;
}

/** Exit code for an endpoint that cannot be reached or refuses the spans. */
export const EXIT_EXPORT_FAILED = 5;

/** Where the spans go, from flags and the standard variables. Throws CliError (2) on bad input. */
export function otlpTarget(
  flags: { otlp?: string; "otlp-header"?: string[]; "otlp-protocol"?: string },
  env: Record<string, string | undefined>,
): OtlpTarget {
  try {
    const url = flags.otlp
      ? tracesUrl(flags.otlp)
      : env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
        ? tracesUrl(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
        : env.OTEL_EXPORTER_OTLP_ENDPOINT
          ? tracesUrl(env.OTEL_EXPORTER_OTLP_ENDPOINT)
          : undefined;
    if (!url) throw new Error("--otlp needs the endpoint's URL (or OTEL_EXPORTER_OTLP_ENDPOINT)");
    return { url, headers: headersOf(flags["otlp-header"] ?? []), protocol: protocolOf(flags["otlp-protocol"], env) };
  } catch (err) {
    throw new CliError(`${argumentError(err)}\n\n${commandUsage("export")}`, 2);
  }
}

export async function otlpExportMain(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        otlp: { type: "string" },
        "otlp-header": { type: "string", multiple: true },
        "otlp-protocol": { type: "string" },
        "otlp-content": { type: "boolean" },
        "otlp-link-base": { type: "string" },
        "otlp-new-ids": { type: "boolean" },
      },
    });
  } catch (err) {
    throw new CliError(`${argumentError(err)}\n\n${commandUsage("export")}`, 2);
  }
  const { values, positionals: files } = parsed;
  if (!files.length) throw new CliError(`export --otlp needs a transcript file\n\n${commandUsage("export")}`, 2);
  const target = otlpTarget(values, process.env);
  // Every FILE read (downloaded, for a link) before any span is sent.
  const sources: Source[] = [];
  const sender = new OtlpSender(target);
  try {
    for (const file of files) sources.push(await openInput(file));
    for (const source of sources) {
      try {
        accessSync(source.file, constants.R_OK);
      } catch (err) {
        throw new CliError(
          `cannot read ${source.name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
          4,
        );
      }
    }
    const redactor = createRedactor(secretsFromEnv(process.env));
    for (const source of sources) {
      // A team server's transcript links back to that server, under the id it has there.
      const linkBase =
        values["otlp-link-base"] ?? source.remote?.base ?? `http://localhost:${process.env.PORT ?? 3000}`;
      let summary;
      try {
        summary = await exportRecording(
          source.file,
          sender,
          {
            linkBase,
            content: values["otlp-content"] === true,
            redact: (text) => redactor.text(text).text,
            salt: values["otlp-new-ids"] ? randomUUID() : undefined,
          },
          undefined,
          source.remote?.id,
        );
      } catch (err) {
        if (err instanceof TranscriptError) throw new CliError(`${source.name}: ${err.message}`, 4);
        if (err instanceof OtlpExportError) throw new CliError(`${source.name}: ${err.message}`, EXIT_EXPORT_FAILED);
        throw err;
      }
      process.stdout.write(
        `sent ${source.name}: ${summary.spans} spans in ${summary.turns} traces (one per turn) to ${sender.url}\n`,
      );
    }
  } finally {
    for (const s of sources) s.close();
    await sender.shutdown();
  }
  return 0;
}
