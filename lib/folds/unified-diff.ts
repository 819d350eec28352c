/**
 * A unified diff (as lib/features/compare/transcript-diff.ts makes them) split into typed lines
 * for display: the viewer colours additions and removals, and never renders
 * the text as markup.
 */

export type DiffLineKind = "meta" | "file" | "hunk" | "add" | "del" | "context";

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

export function parsePatch(patch: string): DiffLine[] {
  if (patch === "") return [];
  const lines = patch.endsWith("\n") ? patch.slice(0, -1).split("\n") : patch.split("\n");
  let inHunk = false;
  return lines.map((text): DiffLine => {
    // "--- a" / "+++ b" are file headers only before the first hunk; inside one they are a removed "-- a" line.
    if (!inHunk && (text.startsWith("--- ") || text.startsWith("+++ "))) return { kind: "file", text };
    if (text.startsWith("@@")) {
      inHunk = true;
      return { kind: "hunk", text };
    }
    if (!inHunk) return { kind: "meta", text };
    if (text.startsWith("+")) return { kind: "add", text };
    if (text.startsWith("-")) return { kind: "del", text };
    if (text.startsWith(" ") || text === "") return { kind: "context", text };
    // "\ No newline at end of file", or a new file's "Index:" / "===" lines.
    if (text.startsWith("Index:") || text.startsWith("===")) inHunk = false;
    return { kind: "meta", text };
  });
}

/** Counts of added and removed lines. */
export function patchStats(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === "add") added++;
    else if (l.kind === "del") removed++;
  }
  return { added, removed };
}
