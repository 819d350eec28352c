import { describe, expect, it } from "vitest";
import { frameLink, seqFromHash } from "./deep-link";

describe("deep links", () => {
  it("reads #seq=N and nothing else", () => {
    expect(seqFromHash("#seq=42")).toBe(42);
    expect(seqFromHash("seq=7")).toBe(7);
    for (const bad of ["", "#seq=0", "#seq=-1", "#seq=1e3", "#seq=4x", "#turn=3", "#seq=99999999999"])
      expect(seqFromHash(bad)).toBeUndefined();
  });

  it("links into the page's own transcript, a share page keeping its token, an export file", () => {
    expect(frameLink("http://127.0.0.1:3000/transcripts/abc?token=t#seq=1", 9)).toBe(
      "http://127.0.0.1:3000/transcripts/abc#seq=9",
    );
    expect(frameLink("http://h/share/abc?token=share1", 3)).toBe("http://h/share/abc?token=share1#seq=3");
    expect(frameLink("file:///home/me/run.html", 5)).toBe("file:///home/me/run.html#seq=5");
  });

  it("from the live playground, links to the session's transcript", () => {
    expect(frameLink("http://h/?token=t", 4, "2026-x")).toBe("http://h/transcripts/2026-x#seq=4");
    expect(frameLink("http://h/", 4)).toBeUndefined();
  });

  it("offers no link where the reader has no access token to open it with", () => {
    expect(frameLink("http://h/watch/0123456789abcdef0123456789abcdef", 4, "2026-x")).toBeUndefined();
    expect(frameLink("http://h/compare/shared/c1?token=s", 4, "2026-x")).toBeUndefined();
    // The owner's own comparison page keeps its links.
    expect(frameLink("http://h/compare/c1", 4, "2026-x")).toBe("http://h/transcripts/2026-x#seq=4");
  });
});
