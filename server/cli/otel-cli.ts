/**
 * `acp-playground export --otlp URL FILE...`: recordings as OpenTelemetry GenAI traces (docs/otel.md).
 * Its own module, called from cli.ts's export command when an --otlp flag is given.
 */
import { randomUUID } from "node:crypto";
import { accessSync, constants } from "node:fs";
import { parseArgs } from "node:util";
import { TranscriptError } from "../../lib/contracts/transcript";
import { createRedactor, secretsFromEnv } from "../../lib/features/redact";
import { exportRecording } from "../otel/export-recording";
import { headersOf, OtlpExportError, OtlpSender, protocolOf, tracesUrl, type OtlpTarget } from "../otel/otlp-sender";
import { CliError } from "./cli-error";

export const OTLP_USAGE = `export --otlp URL FILE... [--otlp-header K=V]... [--otlp-protocol http/protobuf|http/json]
         [--otlp-content] [--otlp-link-base URL] [--otlp-new-ids]
                                          send recordings as OpenTelemetry traces over OTLP/HTTP (docs/otel.md):
                                          one trace per prompt turn; protobuf unless asked; the standard
                                          OTEL_EXPORTER_OTLP_* variables apply. --otlp-content adds the messages
                                          (redacted); --otlp-new-ids sends again as new traces. Exit 5 when the
                                          endpoint is unreachable or refuses`;

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
    throw new CliError(`${(err as Error).message}\n\nusage: acp-playground ${OTLP_USAGE}`, 2);
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
    throw new CliError(`${(err as Error).message}\n\nusage: acp-playground ${OTLP_USAGE}`, 2);
  }
  const { values, positionals: files } = parsed;
  if (!files.length)
    throw new CliError(`export --otlp needs a transcript file\n\nusage: acp-playground ${OTLP_USAGE}`, 2);
  const target = otlpTarget(values, process.env);
  for (const file of files) {
    try {
      accessSync(file, constants.R_OK);
    } catch (err) {
      throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 4);
    }
  }
  const redactor = createRedactor(secretsFromEnv(process.env));
  const linkBase = values["otlp-link-base"] ?? `http://localhost:${process.env.PORT ?? 3000}`;
  const sender = new OtlpSender(target);
  try {
    for (const file of files) {
      let summary;
      try {
        summary = await exportRecording(file, sender, {
          linkBase,
          content: values["otlp-content"] === true,
          redact: (text) => redactor.text(text).text,
          salt: values["otlp-new-ids"] ? randomUUID() : undefined,
        });
      } catch (err) {
        if (err instanceof TranscriptError) throw new CliError(`${file}: ${err.message}`, 4);
        if (err instanceof OtlpExportError) throw new CliError(`${file}: ${err.message}`, EXIT_EXPORT_FAILED);
        throw err;
      }
      process.stdout.write(
        `sent ${file}: ${summary.spans} spans in ${summary.turns} traces (one per turn) to ${sender.url}\n`,
      );
    }
  } finally {
    await sender.shutdown();
  }
  return 0;
}
