import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SharedTranscriptPage } from "./SharedTranscriptPage";

afterEach(() => vi.unstubAllGlobals());

describe("SharedTranscriptPage", () => {
  // The relay answers a revoked link 404, as a deleted transcript's (docs/relay-protocol.md): the page names both.
  it("names Unshare among the reasons a link stopped working", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(new Response(JSON.stringify({ error: { message: "not shared" } }), { status: 404 }))),
    );
    render(<SharedTranscriptPage id="t1" shareToken="revoked-token" />);
    const error = await screen.findByTestId("viewer-error");
    expect(error.textContent).toContain("This share link is not valid");
    expect(error.textContent).toContain("The link was revoked (Unshare), the transcript was deleted");
  });
});
