import { describe, expect, it } from "vitest";
import { takeServeOtlpFlags } from "./otel-cli";

describe("serve --otlp flags", () => {
  it("are taken out of serve's arguments (not after --) and handed on as the relay's variables", () => {
    const env: Record<string, string | undefined> = {};
    const rest = takeServeOtlpFlags(
      [
        "--port",
        "4000",
        "--otlp",
        "http://localhost:6006",
        "--otlp-header=Authorization=Basic x",
        "--otlp-content",
        "--",
        "agent",
        "--otlp",
        "y",
      ],
      env,
    );
    expect(rest).toEqual(["--port", "4000", "--", "agent", "--otlp", "y"]);
    expect(env).toEqual({
      ACP_PLAYGROUND_OTLP: "http://localhost:6006/v1/traces",
      ACP_PLAYGROUND_OTLP_PROTOCOL: "http/protobuf",
      ACP_PLAYGROUND_OTLP_HEADERS: JSON.stringify(["Authorization=Basic x"]),
      ACP_PLAYGROUND_OTLP_CONTENT: "1",
    });
  });

  it("refuses a bad URL or a flag without its value at start, not at the first span", () => {
    expect(() => takeServeOtlpFlags(["--otlp", "localhost:4318"], {})).toThrow("not an http(s) URL");
    expect(() => takeServeOtlpFlags(["--otlp"], {})).toThrow("--otlp needs a value");
    expect(() => takeServeOtlpFlags(["--otlp-header", "nokey", "--otlp", "http://x"], {})).toThrow(
      'expected NAME=VALUE, got "nokey"',
    );
  });
});
