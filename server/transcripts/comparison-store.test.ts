import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ComparisonInput } from "../../lib/contracts/compare-format";
import { ComparisonStore } from "./comparison-store";
import { TranscriptStore } from "./transcript-store";
import { serialize } from "../../lib/contracts/transcript";
import { testHeader } from "../../test/transcripts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const header = (id: string) => serialize(testHeader({ id }));

function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-comparisons-"));
  dirs.push(dir);
  const transcripts = new TranscriptStore(dir, {});
  for (const id of ["t-a", "t-b"]) writeFileSync(transcripts.file(id), header(id));
  return { transcripts, comparisons: new ComparisonStore(dir, transcripts) };
}

const input: ComparisonInput = {
  prompt: "hi",
  sides: [
    { label: "A", profile: "gemini", options: { model: "x" }, transcriptId: "t-a" },
    { label: "B", profile: "gemini", transcriptId: "t-b" },
  ],
};

describe("ComparisonStore", () => {
  it("keeps a comparison linking two existing transcripts, lists it and deletes it", () => {
    const { comparisons } = setup();
    const saved = comparisons.save(input);
    if ("missing" in saved) throw new Error("not saved");
    expect(saved).toMatchObject({ format: "acp-playground-comparison", version: "1.0", ...input });
    expect(comparisons.get(saved.id)).toEqual(saved);
    expect(comparisons.list().map((c) => c.id)).toEqual([saved.id]);
    expect(comparisons.delete(saved.id)).toBe(true);
    expect(comparisons.get(saved.id)).toBeUndefined();
  });

  it("tags both transcripts as a comparison's, so the list shows them as such", () => {
    const { comparisons, transcripts } = setup();
    expect(transcripts.meta("t-a")?.kind).toBe("session");
    comparisons.save(input);
    expect(["t-a", "t-b"].map((id) => transcripts.meta(id)?.kind)).toEqual(["compare", "compare"]);
  });

  it("refuses a missing transcript, bad ids and files that were tampered with", () => {
    const { comparisons } = setup();
    expect(
      comparisons.save({ ...input, sides: [input.sides[0], { ...input.sides[1], transcriptId: "nope" }] }),
    ).toEqual({
      missing: "nope",
    });
    expect(comparisons.get("../../etc/passwd")).toBeUndefined();
    const saved = comparisons.save(input) as { id: string };
    const file = path.join(comparisons.dir, `${saved.id}.json`);
    const record = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(
      file,
      JSON.stringify({ ...record, sides: [{ ...record.sides[0], transcriptId: "../x" }, record.sides[1]] }),
    );
    expect(comparisons.get(saved.id)).toBeUndefined();
    expect(comparisons.list()).toEqual([]);
  });

  it("sharing shares both transcripts; the public view needs the token and both links; unsharing revokes all three", () => {
    const { comparisons, transcripts } = setup();
    const { id } = comparisons.save(input) as { id: string };
    expect(comparisons.shared(id, "anything")).toBeUndefined();
    const shared = comparisons.share(id)!;
    expect(shared.shareToken).toBeTruthy();
    const view = comparisons.shared(id, shared.shareToken!)!;
    expect(view.comparison).not.toHaveProperty("shareToken");
    expect(view.transcripts).toEqual([
      { id: "t-a", token: transcripts.meta("t-a")!.shareToken },
      { id: "t-b", token: transcripts.meta("t-b")!.shareToken },
    ]);
    expect(comparisons.shared(id, "wrong")).toBeUndefined();
    // Sharing again keeps the link.
    expect(comparisons.share(id)!.shareToken).toBe(shared.shareToken);
    // One transcript's link revoked on its own: the comparison's link opens nothing.
    transcripts.unshare("t-b");
    expect(comparisons.shared(id, shared.shareToken!)).toBeUndefined();
    comparisons.share(id);
    comparisons.unshare(id);
    expect(comparisons.shared(id, shared.shareToken!)).toBeUndefined();
    expect(transcripts.meta("t-a")!.shareToken).toBeUndefined();
    expect(comparisons.get(id)!.shareToken).toBeUndefined();
  });

  it("a transcript link revoked stays dead for the comparisons that include it, even once shared again", () => {
    const { comparisons, transcripts } = setup();
    const { id } = comparisons.save(input) as { id: string };
    transcripts.share("t-a");
    transcripts.share("t-b");
    const link = comparisons.share(id)!.shareToken!;
    expect(comparisons.shared(id, link)).toBeDefined();
    // Revoked, then shared again (a new transcript link): the comparison's old link opens nothing.
    transcripts.unshare("t-a");
    transcripts.share("t-a");
    expect(transcripts.meta("t-a")!.shareToken).toBeTruthy();
    expect(comparisons.shared(id, link)).toBeUndefined();
    // And the comparison reads as not shared, rather than as shared with a dead link.
    expect(comparisons.get(id)).not.toHaveProperty("shareToken");
    expect(comparisons.list()[0]).not.toHaveProperty("shareToken");
    // Sharing the comparison again makes a new link, bound to the new transcript link; the old one stays dead.
    const again = comparisons.share(id)!.shareToken!;
    expect(again).not.toBe(link);
    expect(comparisons.shared(id, again)!.transcripts[0]).toEqual({
      id: "t-a",
      token: transcripts.meta("t-a")!.shareToken,
    });
    expect(comparisons.shared(id, link)).toBeUndefined();
    // Either side: the other transcript's link revoked and remade kills the new one too.
    transcripts.unshare("t-b");
    transcripts.share("t-b");
    expect(comparisons.shared(id, again)).toBeUndefined();
  });

  it("revokes a comparison link made before links were bound to the transcript links", () => {
    const { comparisons, transcripts } = setup();
    const { id } = comparisons.save(input) as { id: string };
    comparisons.share(id);
    // As a relay before this wrote it: a bare random token.
    const file = path.join(comparisons.dir, `${id}.json`);
    const legacy = "abcdefghijklmnopqrstuvwx";
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), shareToken: legacy }));
    expect(transcripts.meta("t-a")!.shareToken).toBeTruthy();
    expect(comparisons.shared(id, legacy)).toBeUndefined();
  });
});
