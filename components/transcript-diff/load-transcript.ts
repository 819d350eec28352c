/**
 * One transcript read whole for a diff: the API's JSONL parsed by the
 * transcript format's own rules, its frames paired (recordings made before
 * `requestSeq` are paired on load, as the viewer does).
 */
import { parseTranscript, type TranscriptHeader } from "@/lib/contracts/transcript";
import type { Frame } from "@/lib/protocol/frame";
import { RequestSeqFiller } from "@/lib/protocol/correlate";
import { authHeaders, errorOf, transcriptUrl } from "../transcripts/api";

export interface LoadedTranscript {
  header: TranscriptHeader;
  frames: Frame[];
}

export function framesOf(text: string): LoadedTranscript {
  const { header, frames } = parseTranscript(text);
  const filler = new RequestSeqFiller();
  for (const f of frames) filler.fill(f);
  return { header, frames };
}

export async function loadTranscript(token: string, id: string, signal?: AbortSignal): Promise<LoadedTranscript> {
  const res = await fetch(transcriptUrl(id), { headers: authHeaders(token), cache: "no-store", signal });
  if (!res.ok) throw await errorOf(res);
  return framesOf(await res.text());
}
