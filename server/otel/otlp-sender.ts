/**
 * Sends the mapping's spans (lib/features/otel) over OTLP/HTTP with the OpenTelemetry JS exporters:
 * protobuf by default (what Phoenix requires), JSON on request. The spans were made from recorded
 * frames with fixed ids and times, so they are handed to the exporter as ReadableSpans directly,
 * not started through a tracer. The exporter reads the standard OTEL_EXPORTER_OTLP_* variables
 * (headers, timeout, compression, endpoint when no URL is given); flags given here win.
 */
import { SpanKind, SpanStatusCode, TraceFlags, type HrTime } from "@opentelemetry/api";
import { ExportResultCode } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { detectResources, envDetector, resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import type { TraceSpan } from "../../lib/features/otel/trace-span";
import { VERSION } from "../version";

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface OtlpTarget {
  /** The traces endpoint (…/v1/traces); undefined: the exporter's own (OTEL_EXPORTER_OTLP_*ENDPOINT, else localhost:4318). */
  url?: string;
  headers: Record<string, string>;
  protocol: OtlpProtocol;
  /** Per request, retries included; undefined: OTEL_EXPORTER_OTLP_TIMEOUT, else 10 s. */
  timeoutMillis?: number;
}

/** A refused or failed export: says where to and what came back. */
export class OtlpExportError extends Error {
  constructor(
    readonly url: string,
    readonly status: number | undefined,
    detail: string,
  ) {
    super(`OTLP export to ${url} failed: ${detail}`);
  }
}

const PROTOCOLS: readonly OtlpProtocol[] = ["http/protobuf", "http/json"];

/**
 * The traces endpoint for what a user typed: a base address gets `/v1/traces` (as
 * OTEL_EXPORTER_OTLP_ENDPOINT does), an address already ending in it is kept.
 */
export function tracesUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new Error(`not a URL: ${input}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`not an http(s) URL: ${input}`);
  if (!/\/v1\/traces\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/traces`;
  return url.toString();
}

/** The protocol asked for: a flag, else OTEL_EXPORTER_OTLP_TRACES_PROTOCOL / _PROTOCOL, else protobuf. */
export function protocolOf(flag: string | undefined, env: Record<string, string | undefined>): OtlpProtocol {
  const asked = flag ?? env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  const p = asked === "json" ? "http/json" : asked === "protobuf" ? "http/protobuf" : asked;
  if (!PROTOCOLS.includes(p as OtlpProtocol))
    throw new Error(`OTLP protocol ${asked} is not supported: use http/protobuf (the default) or http/json`);
  return p as OtlpProtocol;
}

/** `K=V` header flags (a value may hold `=`); a flag without `=` is an error. */
export function headersOf(specs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of specs) {
    const eq = spec.indexOf("=");
    if (eq < 1) throw new Error(`--otlp-header: expected NAME=VALUE, got "${spec}"`);
    out[spec.slice(0, eq).trim()] = spec.slice(eq + 1).trim();
  }
  return out;
}

const hr = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

const KINDS = { client: SpanKind.CLIENT, server: SpanKind.SERVER, internal: SpanKind.INTERNAL } as const;
const STATUS = { unset: SpanStatusCode.UNSET, ok: SpanStatusCode.OK, error: SpanStatusCode.ERROR } as const;

export function playgroundResource(): Resource {
  return resourceFromAttributes({ [ATTR_SERVICE_NAME]: "acp-playground", [ATTR_SERVICE_VERSION]: VERSION }).merge(
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, as every OpenTelemetry SDK reads them.
    detectResources({ detectors: [envDetector] }),
  );
}

export function toReadableSpan(s: TraceSpan, resource: Resource): ReadableSpan {
  const context = { traceId: s.traceId, spanId: s.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: false };
  return {
    name: s.name,
    kind: KINDS[s.kind],
    spanContext: () => context,
    parentSpanContext: s.parentSpanId
      ? { traceId: s.traceId, spanId: s.parentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: false }
      : undefined,
    startTime: hr(s.start),
    endTime: hr(s.end),
    duration: hr(s.end - s.start),
    status: { code: STATUS[s.status.code], ...(s.status.message !== undefined ? { message: s.status.message } : {}) },
    attributes: s.attributes,
    links: s.links.map((l) => ({
      context: { traceId: l.traceId, spanId: l.spanId, traceFlags: TraceFlags.SAMPLED },
      attributes: l.attributes,
    })),
    events: s.events.map((e) => ({ name: e.name, time: hr(e.time), attributes: e.attributes })),
    ended: true,
    resource,
    instrumentationScope: { name: "acp-playground", version: VERSION },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

function describe(error: unknown): { status?: number; detail: string } {
  if (!(error instanceof Error)) return { detail: String(error) };
  const code = (error as { code?: unknown }).code;
  if (typeof code === "number") {
    const data = (error as { data?: unknown }).data;
    const body = typeof data === "string" && data.trim() ? `: ${data.trim().slice(0, 300)}` : "";
    return { status: code, detail: `HTTP ${code}${error.message ? ` ${error.message}` : ""}${body}` };
  }
  return { detail: error.message || error.name };
}

/** One exporter for one endpoint; `send` resolves when the backend accepted the batch. */
export class OtlpSender {
  readonly url: string;
  readonly #exporter: Promise<SpanExporter>;
  readonly #resource = playgroundResource();

  constructor(target: OtlpTarget) {
    this.url = target.url ?? "the OTEL_EXPORTER_OTLP endpoint";
    const config = {
      ...(target.url ? { url: target.url } : {}),
      headers: target.headers,
      ...(target.timeoutMillis !== undefined ? { timeoutMillis: target.timeoutMillis } : {}),
    };
    // Loaded on first use: `serve` without --otlp never loads the exporters.
    this.#exporter =
      target.protocol === "http/json"
        ? import("@opentelemetry/exporter-trace-otlp-http").then((m) => new m.OTLPTraceExporter(config))
        : import("@opentelemetry/exporter-trace-otlp-proto").then((m) => new m.OTLPTraceExporter(config));
  }

  async send(spans: readonly TraceSpan[]): Promise<void> {
    if (!spans.length) return;
    const exporter = await this.#exporter;
    const readable = spans.map((s) => toReadableSpan(s, this.#resource));
    await new Promise<void>((resolve, reject) => {
      exporter.export(readable, (result) => {
        if (result.code === ExportResultCode.SUCCESS) return resolve();
        const { status, detail } = describe(result.error);
        reject(new OtlpExportError(this.url, status, detail));
      });
    });
  }

  async shutdown(): Promise<void> {
    await (await this.#exporter).shutdown();
  }
}
