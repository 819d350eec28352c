/** Writes a generated section between its two marker lines in a doc, formatted as the repo formats it. */
import { readFileSync, writeFileSync } from "node:fs";
import { format, resolveConfig } from "prettier";

export async function writeDocSection(doc: string, start: string, end: string, section: string): Promise<void> {
  const text = readFileSync(doc, "utf8");
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${doc} has no ${start} … ${end} markers`);
  const next = text.slice(0, from) + section + text.slice(to + end.length);
  writeFileSync(doc, await format(next, { ...(await resolveConfig(doc)), filepath: doc }));
}
