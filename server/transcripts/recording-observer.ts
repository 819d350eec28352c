/**
 * Told of every recording as the recorder writes it, with the lines' own (redacted) text and
 * stamped times, so what it sees is what the file holds: the live OTLP export (server/otel/
 * live-export.ts) sends the same spans as exporting the file later would. Called on the frame
 * path: a sink only enqueues.
 */
import type { Frame } from "../../lib/protocol/frame";
import type { LifecycleEvent, TranscriptHeader } from "../../lib/contracts/transcript";

export interface RecordingSink {
  /** `raw`: the frame's line as written (redacted: `redacted` replacements); `ts`: its stamped time. */
  frame(frame: Frame, raw: string, redacted: number, ts: number): void;
  lifecycle(event: LifecycleEvent): void;
  /** The recording ended (its file is closed). */
  close(): void;
}

export interface RecordingObserver {
  /** A new recording: a sink for it, or undefined to leave it alone. */
  open(header: TranscriptHeader): RecordingSink | undefined;
  /** Sends what is still queued and stops (the relay's close). */
  close?(): Promise<void>;
}
