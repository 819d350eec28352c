import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { serialize, serializeFrame } from "@/lib/contracts/transcript";
import { Viewer } from "./TranscriptViewerPage";
import { testHeader } from "@/test/transcripts";

const header = serialize(
  testHeader({
    id: "t1",
    createdAt: "2026-11-28T10:00:00.000Z",
    title: "Write hello.txt",
    agent: { profile: "gemini", command: "gemini" },
  }),
);
const frame = serializeFrame({
  seq: 1,
  ts: 1000,
  dir: "to-agent",
  kind: "request",
  method: "initialize",
  raw: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } }),
});

/** The relay's answers: the transcript's JSONL, and no OTLP target. */
function serve(jsonl: string) {
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string) =>
      Promise.resolve(
        url.startsWith("/api/transcripts/")
          ? new Response(jsonl, { status: 200 })
          : new Response(JSON.stringify({ url: null }), { status: 200 }),
      ),
    ),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("TranscriptViewerPage", () => {
  it("disables Replay as mock agent when there is nothing to replay, as the library's row does (issue #35)", async () => {
    serve(header);
    render(<Viewer id="t1" token="tok" rerun={false} />);
    const replay = await screen.findByTestId("viewer-replay");
    await waitFor(() => expect(screen.getByTestId("transcript-viewer").dataset.complete).toBe("true"));
    expect(replay.getAttribute("aria-disabled")).toBe("true");
    expect(replay.getAttribute("title")).toBe("No frames to replay");
  });

  it("offers Replay as mock agent for a transcript with frames", async () => {
    serve(header + frame);
    render(<Viewer id="t1" token="tok" rerun={false} />);
    await waitFor(() => expect(screen.getByTestId("transcript-viewer").dataset.complete).toBe("true"));
    const replay = screen.getByTestId("viewer-replay");
    expect(replay.getAttribute("aria-disabled")).toBe("false");
    expect(replay.getAttribute("href")).toBe("/?profile=replay%3At1");
  });
});
