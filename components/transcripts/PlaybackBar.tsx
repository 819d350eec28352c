"use client";
/** Play / pause / step, the timeline scrubber and the speed, over the recorded frames. */
import { MAX_GAP_MS, SPEEDS } from "@/lib/folds/playback";
import { PauseIcon, PlayIcon, StepBackIcon, StepIcon } from "./icons";
import type { Playback } from "./use-playback";

interface Props {
  playback: Playback;
  complete: boolean;
  /** ms since the epoch of the i-th frame. */
  frameTs: (i: number) => number | undefined;
}

const button =
  "flex h-7 min-w-7 items-center justify-center rounded border border-zinc-700 bg-zinc-900 px-2 text-xs text-zinc-200 hover:bg-zinc-800 disabled:opacity-40";

/** "+1:02.3" from the first frame. */
function offset(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  const m = Math.floor(s / 60);
  return `+${m}:${(s - m * 60).toFixed(1).padStart(4, "0")}`;
}

export function PlaybackBar({ playback, complete, frameTs }: Props) {
  const { state, play, pause, step, seek, setSpeed } = playback;
  const { position, total, playing, speed } = state;
  const first = frameTs(0);
  const current = position > 0 ? frameTs(position - 1) : undefined;
  const disabled = !complete || total === 0;

  return (
    <div
      data-testid="playback"
      data-playing={playing}
      className="flex flex-wrap items-center gap-2 border-b border-zinc-800 bg-zinc-900/40 px-3 py-1.5"
    >
      <button
        type="button"
        data-testid="playback-back"
        aria-label="Step back"
        title="Step back one frame"
        className={button}
        disabled={disabled || position === 0}
        onClick={() => step(-1)}
      >
        <StepBackIcon />
      </button>
      <button
        type="button"
        data-testid="playback-play"
        aria-label={playing ? "Pause" : "Play"}
        title={playing ? "Pause" : position >= total ? "Play from the start" : "Play"}
        className={`${button} w-20 gap-1.5 ${playing ? "border-sky-600 text-sky-200" : ""}`}
        disabled={disabled}
        onClick={playing ? pause : play}
      >
        {playing ? <PauseIcon /> : <PlayIcon />}
        {playing ? "Pause" : "Play"}
      </button>
      <button
        type="button"
        data-testid="playback-step"
        aria-label="Step"
        title="Show the next frame"
        className={button}
        disabled={disabled || position >= total}
        onClick={() => step(1)}
      >
        <StepIcon />
      </button>
      <input
        type="range"
        data-testid="playback-scrubber"
        aria-label="Timeline"
        min={0}
        max={total}
        step={1}
        value={position}
        disabled={disabled}
        onChange={(e) => seek(Number(e.target.value))}
        className="min-w-40 flex-1 accent-sky-500"
      />
      <span
        data-testid="playback-position"
        className="shrink-0 whitespace-nowrap text-right font-mono text-xs text-zinc-300 tabular-nums"
      >
        {position.toLocaleString("en")} / {total.toLocaleString("en")}
        <span className="ml-2 text-zinc-400">
          {first !== undefined && current !== undefined ? offset(current - first) : "+0:00.0"}
        </span>
      </span>
      <div
        role="group"
        aria-label="Speed"
        className="flex overflow-hidden rounded border border-zinc-700"
        title={`Recorded timing; pauses longer than ${MAX_GAP_MS / 1000} s are shortened to ${MAX_GAP_MS / 1000} s`}
      >
        {SPEEDS.map((s) => (
          <button
            key={s}
            type="button"
            data-testid={`speed-${s}`}
            aria-pressed={speed === s}
            disabled={disabled}
            onClick={() => setSpeed(s)}
            className={`px-2 py-1 text-xs disabled:opacity-40 ${speed === s ? "bg-sky-600/30 text-sky-200" : "bg-zinc-900 text-zinc-400 hover:bg-zinc-800"}`}
          >
            {s}
          </button>
        ))}
      </div>
      {!complete ? (
        <span className="text-xs text-zinc-400">loading… {total.toLocaleString("en")} frames read</span>
      ) : null}
    </div>
  );
}
