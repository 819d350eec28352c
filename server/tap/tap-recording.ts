/**
 * What both ends of a tap do with what it saw: make frames (the one
 * sequencer), record them to a transcript marked "tapped". The relay's tap
 * session and the tap recording on its own (no relay) share it. The secrets
 * redacted are the caller's to give: only the tap knows the agent's
 * environment (it redacts before it sends, server/tap/tap-sink.ts).
 */
import type { Frame } from "../../lib/protocol/frame";
import { FrameSequencer } from "../../lib/protocol/frame-sequencer";
import type { TapEvent, TapOpen } from "../../lib/contracts/tap-wire";
import type { StderrEvent } from "../../lib/contracts/wire";
import { TranscriptRecorder } from "../transcripts/transcript-recorder";
import type { TranscriptStore } from "../transcripts/transcript-store";

export type Applied =
  | { type: "frame"; frame: Frame }
  | { type: "stderr"; event: StderrEvent }
  | { type: "notice"; message: string }
  | { type: "exit"; code: number | null; signal: string | null };

export class TapRecording {
  /** Frames carry the time the tap saw them (sub-ms, for latencies), not when they arrived here. */
  private at: number;
  readonly sequencer = new FrameSequencer({ wall: () => Math.round(this.at), mono: () => this.at });
  readonly recorder: TranscriptRecorder;

  constructor(store: TranscriptStore, open: TapOpen, maxLineBytes: number, secrets: readonly string[]) {
    this.maxLineBytes = maxLineBytes;
    // The tap opens after its first frames (its socket loads late): the spawn, not the open, starts the recording.
    this.at = Math.min(open.startedAt ?? Date.now(), Date.now());
    this.recorder = new TranscriptRecorder(
      store,
      { profile: open.profile, command: open.command, args: open.args, cwd: open.cwd },
      [...secrets],
      "tapped",
      this.at,
    );
    this.recorder.lifecycle({ event: "spawned", pid: open.pid }, this.at);
  }

  private readonly maxLineBytes: number;

  get id(): string {
    return this.recorder.id;
  }

  /** Records one event; returns what viewers should be shown. */
  apply(event: TapEvent): Applied {
    this.at = event.ts;
    switch (event.t) {
      case "line": {
        const bytes =
          event.base64 === undefined ? Buffer.byteLength(event.raw) : Buffer.byteLength(event.base64, "base64");
        if (bytes > this.maxLineBytes) {
          return this.frame(
            this.sequencer.invalid(
              event.dir,
              event.raw.slice(0, 200),
              `line of ${bytes} bytes exceeds the maximum of ${this.maxLineBytes}`,
            ),
          );
        }
        return this.frame(this.sequencer.line(event.dir, event.raw, event.base64));
      }
      case "oversize":
        return this.frame(
          this.sequencer.invalid(
            event.dir,
            event.preview.slice(0, 200),
            `line of ${event.bytes} bytes exceeds the maximum of ${this.maxLineBytes}; the tap forwarded it but did not copy it`,
          ),
        );
      case "stderr":
        this.recorder.stderr(Math.round(event.ts), event.text);
        return { type: "stderr", event: { ts: Math.round(event.ts), text: event.text } };
      case "dropped": {
        const message = `the tap could not forward ${event.frames} frame${event.frames === 1 ? "" : "s"} (${event.bytes} bytes) to the relay: its buffer was full or the relay was away; the editor and the agent still exchanged them`;
        this.recorder.lifecycle({ event: "error", message });
        return { type: "notice", message };
      }
      case "exit":
        this.recorder.lifecycle({ event: "exited", code: event.code, signal: event.signal }, event.ts);
        return { type: "exit", code: event.code, signal: event.signal };
    }
  }

  /** A frame a browser injected into the conversation. */
  inject(line: string): Frame {
    this.at = performance.timeOrigin + performance.now();
    const frame = { ...this.sequencer.line("to-agent", line), injected: true as const };
    this.recorder.frame(frame);
    return frame;
  }

  private frame(frame: Frame): Applied {
    this.recorder.frame(frame);
    return { type: "frame", frame };
  }

  close(): void {
    this.recorder.close();
  }
}
