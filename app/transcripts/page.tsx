import type { Metadata } from "next";
import { TranscriptsPage } from "@/components/transcripts/TranscriptsPage";

export const metadata: Metadata = { title: "Transcripts · ACP Playground" };

export default function Page() {
  return <TranscriptsPage />;
}
