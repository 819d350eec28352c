import type { Metadata } from "next";
import { TranscriptDiffPage } from "@/components/transcript-diff/TranscriptDiffPage";

export const metadata: Metadata = { title: "Diff · ACP Playground" };

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);
const turn = (v: string | string[] | undefined) => {
  const n = Number(one(v));
  return one(v) !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
};

/** /transcripts/diff?a=ID&b=ID[&ta=N&tb=N] */
export default async function Page({ searchParams }: Props) {
  const q = await searchParams;
  const a = one(q.a) ?? "";
  const b = one(q.b) ?? a;
  return <TranscriptDiffPage a={a} b={b} ta={turn(q.ta)} tb={turn(q.tb)} />;
}
