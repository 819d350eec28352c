import { PassThrough } from "node:stream";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { LiveOtlpExport } from "../otel/live-export";
import { OtlpSender } from "../otel/otlp-sender";
import { INTERNAL_ERROR } from "../relay-failure";
import { handleOtlpApi } from "./otlp-api";
import type { Relay } from "./relay";

describe("POST /api/transcripts/:id/otlp", () => {
  it("tells the asker an unexpected failure in fixed words; the path it names goes to the log", async () => {
    const live = new LiveOtlpExport(
      new OtlpSender({ url: "http://127.0.0.1:9/v1/traces", headers: {}, protocol: "http/json" }),
      {
        linkBase: "http://localhost:3000",
        content: false,
        redact: (text) => text,
      },
    );
    // The recording's file went away between the lookup and the read (a delete on another tab).
    const gone = "/var/lib/operator-only/transcripts/20261129-100000-aaaaaaaa.jsonl";
    const relay = {
      transcripts: { recordings: live },
      config: { dataDir: "/tmp/unused" },
      shared: { meta: async () => ({ recording: false }), file: async () => ({ file: gone }) },
    } as unknown as Relay;
    const body = new PassThrough();
    let text = "";
    body.on("data", (d: Buffer) => (text += String(d)));
    const res = Object.assign(body, { writeHead: () => res }) as unknown as ServerResponse;
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const req = { method: "POST" } as IncomingMessage;
      expect(await handleOtlpApi(req, res, ["transcripts", "20261129-100000-aaaaaaaa", "otlp"], relay)).toBe(true);
      const last = JSON.parse(text.trim().split("\n").at(-1)!) as { type: string; message: string };
      expect(last).toEqual({ type: "error", message: INTERNAL_ERROR });
      expect(text).not.toContain("operator-only");
      expect(logged.mock.calls.flat().join(" ")).toContain("operator-only");
    } finally {
      logged.mockRestore();
    }
  });
});
