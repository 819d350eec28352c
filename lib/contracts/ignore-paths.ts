/** Paths a user asks a comparison to leave out: `result._meta.x`, `*` for any one key, `**` for any depth. */

/** Drops the values at `path` (segments split on "."; `*` any one key, `**` any depth). */
export function dropPath(value: unknown, path: readonly string[]): void {
  if (typeof value !== "object" || value === null || path.length === 0) return;
  const [head, ...rest] = path;
  if (head === undefined) return;
  const obj = value as Record<string, unknown>;
  const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(obj);
  if (head === "**") {
    dropPath(value, rest);
    for (const k of keys) dropPath(obj[k], path);
    return;
  }
  for (const k of keys) {
    // A key may hold dots itself (`qwen.branchPoint`): it takes as many segments.
    const width = head === "*" ? 1 : k.split(".").length;
    if (head !== "*" && path.slice(0, width).join(".") !== k) continue;
    const after = path.slice(width);
    if (after.length === 0) obj[k] = "<ignored>";
    else dropPath(obj[k], after);
  }
}

/** Whether a path given by a user is usable (dot-separated, no empty segment). */
export function parseIgnorePath(path: string): string[] | undefined {
  const segments = path.split(".");
  return path.length > 0 && path.length <= 500 && segments.every((s) => s.length > 0) ? segments : undefined;
}
