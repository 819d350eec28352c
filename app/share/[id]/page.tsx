import type { Metadata } from "next";
import { SharedTranscriptPage } from "@/components/transcripts/SharedTranscriptPage";

export const metadata: Metadata = { title: "Shared transcript · ACP Playground" };

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function Page({ params, searchParams }: Props) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const token = typeof query.token === "string" ? query.token : "";
  return <SharedTranscriptPage id={id} shareToken={token} />;
}
