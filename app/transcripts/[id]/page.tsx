import type { Metadata } from "next";
import { headers } from "next/headers";
import { TranscriptViewerPage } from "@/components/transcripts/TranscriptViewerPage";

export const metadata: Metadata = { title: "Transcript · ACP Playground" };

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function Page({ params, searchParams }: Props) {
  const [{ id }, query, head] = await Promise.all([params, searchParams, headers()]);
  // The server puts the page's policy on the request (server/http/app-server.ts).
  const nonce = /'nonce-([^']+)'/.exec(head.get("content-security-policy") ?? "")?.[1];
  // ?rerun (from the list's Re-run) opens the re-run panel.
  return <TranscriptViewerPage id={id} rerun={query.rerun !== undefined} nonce={nonce} />;
}
