import { describe, expect, it } from "vitest";
import { headersOf, protocolOf, toReadableSpan, playgroundResource, tracesUrl } from "./otlp-sender";

describe("OTLP target", () => {
  it("adds /v1/traces to a base address, as OTEL_EXPORTER_OTLP_ENDPOINT does, and keeps a full one", () => {
    expect(tracesUrl("http://localhost:6006")).toBe("http://localhost:6006/v1/traces");
    expect(tracesUrl("https://cloud.langfuse.com/api/public/otel/")).toBe(
      "https://cloud.langfuse.com/api/public/otel/v1/traces",
    );
    expect(tracesUrl("http://tempo:4318/v1/traces")).toBe("http://tempo:4318/v1/traces");
    expect(() => tracesUrl("localhost:4318")).toThrow("not an http(s) URL");
    expect(() => tracesUrl("nonsense")).toThrow("not a URL: nonsense");
  });

  it("takes protobuf unless JSON is asked for, by flag or by the standard variables", () => {
    expect(protocolOf(undefined, {})).toBe("http/protobuf");
    expect(protocolOf("json", {})).toBe("http/json");
    expect(protocolOf(undefined, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toBe("http/json");
    expect(
      protocolOf(undefined, {
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      }),
    ).toBe("http/protobuf");
    expect(() => protocolOf("grpc", {})).toThrow("OTLP protocol grpc is not supported");
  });

  it("reads K=V headers, a value may hold =", () => {
    expect(headersOf(["Authorization=Basic YTpi==", " x-api-key = k "])).toEqual({
      Authorization: "Basic YTpi==",
      "x-api-key": "k",
    });
    expect(() => headersOf(["novalue"])).toThrow('expected NAME=VALUE, got "novalue"');
  });
});

describe("toReadableSpan", () => {
  it("keeps the recorded times to the millisecond and the given ids", () => {
    const s = toReadableSpan(
      {
        traceId: "0123456789abcdef0123456789abcdef",
        spanId: "0123456789abcdef",
        parentSpanId: "fedcba9876543210",
        name: "x",
        kind: "internal",
        start: 1795315189212,
        end: 1795315189522,
        attributes: { a: 1 },
        events: [],
        status: { code: "error", message: "m" },
        links: [],
      },
      playgroundResource(),
    );
    expect(s.startTime).toEqual([1795315189, 212_000_000]);
    expect(s.endTime).toEqual([1795315189, 522_000_000]);
    expect(s.duration).toEqual([0, 310_000_000]);
    expect(s.spanContext().spanId).toBe("0123456789abcdef");
    expect(s.parentSpanContext?.spanId).toBe("fedcba9876543210");
    expect(s.status).toEqual({ code: 2, message: "m" });
  });
});
