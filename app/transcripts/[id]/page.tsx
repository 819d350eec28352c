import type { Metadata } from "next";
import { TranscriptViewerPage } from "@/components/transcripts/TranscriptViewerPage";

export const metadata: Metadata = { title: "Transcript · ACP Playground" };

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function Page({ params, searchParams }: Props) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  // ?rerun (from the list's Re-run) opens the re-run panel.
  return <TranscriptViewerPage id={id} rerun={query.rerun !== undefined} />;
}
