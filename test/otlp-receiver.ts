/**
 * A throw-away OTLP/HTTP trace receiver that behaves like Arize Phoenix: protobuf on
 * `POST /v1/traces` (JSON gets 415 unless `json` is on), spans kept by span id (the same id sent
 * twice is one span). It decodes with the OTLP protobuf definitions as the OpenTelemetry JS packages
 * generated them (@opentelemetry/otlp-transformer's protobufjs root, installed as
 * otlp-transformer-protobufjs), never by hand.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";

interface ProtoType {
  decode(buf: Uint8Array): unknown;
  toObject(msg: unknown, opts: Record<string, unknown>): unknown;
}
const require = createRequire(import.meta.url);
const root = require("otlp-transformer-protobufjs/build/src/generated/root.js") as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoType } } } } };
};
const ExportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export type AttrValue = string | number | boolean | AttrValue[];

/** A span as a backend stores it: ids in hex, times in ms, attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttrValue>;
  events: Array<{ name: string; timeMs: number; attributes: Record<string, AttrValue> }>;
  /** OTLP's StatusCode: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, AttrValue> }>;
  resource: Record<string, AttrValue>;
  scope: string;
}

export interface ReceivedRequest {
  contentType: string;
  headers: IncomingMessage["headers"];
  spans: number;
}

type Obj = Record<string, unknown>;
const hex = (b: unknown): string => (b instanceof Uint8Array ? Buffer.from(b).toString("hex") : "");
/** Nanoseconds (a string: longs are read as strings) to ms. */
const ms = (nanos: unknown): number => Number(BigInt(typeof nanos === "string" ? nanos : 0) / 1_000_000n);

function value(v: Obj | undefined): AttrValue {
  if (!v) return "";
  if (v.stringValue !== undefined) return v.stringValue as string;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue as number;
  if (v.boolValue !== undefined) return v.boolValue as boolean;
  if (v.arrayValue !== undefined) return (((v.arrayValue as Obj).values as Obj[]) ?? []).map(value);
  return "";
}

function attrs(list: unknown): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  for (const kv of (list as Obj[] | undefined) ?? []) out[kv.key as string] = value(kv.value as Obj);
  return out;
}

/** The spans of one ExportTraceServiceRequest (protobuf bytes). */
export function decodeTraces(body: Uint8Array): ReceivedSpan[] {
  const msg = ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), {
    longs: String,
    arrays: true,
    defaults: false,
  }) as Obj;
  const out: ReceivedSpan[] = [];
  for (const rs of msg.resourceSpans as Obj[]) {
    const resource = attrs((rs.resource as Obj | undefined)?.attributes);
    for (const ss of rs.scopeSpans as Obj[]) {
      const scope = ((ss.scope as Obj | undefined)?.name as string) ?? "";
      for (const s of ss.spans as Obj[]) {
        const status = (s.status as Obj | undefined) ?? {};
        const parent = hex(s.parentSpanId);
        out.push({
          traceId: hex(s.traceId),
          spanId: hex(s.spanId),
          ...(parent ? { parentSpanId: parent } : {}),
          name: s.name as string,
          kind: (s.kind as number) ?? 0,
          startMs: ms(s.startTimeUnixNano),
          endMs: ms(s.endTimeUnixNano),
          attributes: attrs(s.attributes),
          events: ((s.events as Obj[]) ?? []).map((e) => ({
            name: e.name as string,
            timeMs: ms(e.timeUnixNano),
            attributes: attrs(e.attributes),
          })),
          status: {
            code: (status.code as number) ?? 0,
            ...(status.message ? { message: status.message as string } : {}),
          },
          links: ((s.links as Obj[]) ?? []).map((l) => ({
            traceId: hex(l.traceId),
            spanId: hex(l.spanId),
            attributes: attrs(l.attributes),
          })),
          resource,
          scope,
        });
      }
    }
  }
  return out;
}

export interface OtlpReceiver {
  /** http://127.0.0.1:PORT (no path: the sender adds /v1/traces). */
  url: string;
  /** Every span received, by span id (sent twice: kept once). */
  spans: Map<string, ReceivedSpan>;
  requests: ReceivedRequest[];
  /** Answer every request with this status (e.g. 503), or undefined to accept. */
  failWith?: number;
  close(): Promise<void>;
}

export async function startOtlpReceiver(
  opts: { json?: boolean; requireHeader?: [string, string] } = {},
): Promise<OtlpReceiver> {
  const spans = new Map<string, ReceivedSpan>();
  const requests: ReceivedRequest[] = [];
  const receiver: OtlpReceiver = { url: "", spans, requests, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const contentType = req.headers["content-type"] ?? "";
      const answer = (status: number, text = "") => {
        res.writeHead(status, { "content-type": "text/plain" });
        res.end(text);
      };
      if (req.method !== "POST" || req.url !== "/v1/traces") return answer(404, "not found");
      if (receiver.failWith) return answer(receiver.failWith, "failing on purpose");
      const [name, expected] = opts.requireHeader ?? [];
      if (name && req.headers[name.toLowerCase()] !== expected) return answer(401, "missing or wrong credentials");
      let received: ReceivedSpan[];
      if (contentType.startsWith("application/x-protobuf")) {
        try {
          received = decodeTraces(body);
        } catch (err) {
          return answer(400, `bad protobuf: ${(err as Error).message}`);
        }
      } else if (contentType.startsWith("application/json") && opts.json) {
        // Only counted: OTLP/JSON is not proto3's JSON mapping (ids are hex), so it is not decoded here.
        const parsed = JSON.parse(body.toString("utf8")) as {
          resourceSpans: Array<{ scopeSpans: Array<{ spans: unknown[] }> }>;
        };
        const n = parsed.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).length;
        requests.push({ contentType, headers: req.headers, spans: n });
        return answer(200, "{}");
      } else {
        return answer(415, `unsupported content type ${contentType}`);
      }
      requests.push({ contentType, headers: req.headers, spans: received.length });
      for (const s of received) spans.set(s.spanId, s);
      res.writeHead(200, { "content-type": "application/x-protobuf" });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
