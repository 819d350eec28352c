"use client";
import { PageFrame } from "./PageFrame";
import { TranscriptLibrary } from "./TranscriptLibrary";

export function TranscriptsPage() {
  return <PageFrame>{(token) => <TranscriptLibrary token={token} />}</PageFrame>;
}
