/**
 * The transcript player's clock and controls, as a pure reducer: which prefix
 * of the recorded frames is shown, and when the next one is due. The caller
 * supplies wall-clock times (`now`), so every transition is testable.
 */

export type Speed = "1x" | "10x" | "instant";
export const SPEEDS: readonly Speed[] = ["1x", "10x", "instant"];

/** Idle gaps longer than this (the user was typing, say) are shortened to it at 1x and 10x. */
export const MAX_GAP_MS = 3_000;

const RATE: Record<Exclude<Speed, "instant">, number> = { "1x": 1, "10x": 10 };

/**
 * When each frame is due, in ms of playback time from the first frame: the
 * recorded gaps, each capped at `maxGap` (and never negative: clocks jump).
 */
export function playbackTimes(ts: ArrayLike<number>, maxGap = MAX_GAP_MS): Float64Array {
  const out = new Float64Array(ts.length);
  for (let i = 1; i < ts.length; i++) {
    const gap = ts[i]! - ts[i - 1]!;
    out[i] = out[i - 1]! + Math.min(maxGap, Math.max(0, gap));
  }
  return out;
}

/** How many of the sorted values are <= x (binary search). */
export function countUpTo(sorted: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many of the ts-ordered events happened at or before `ts`. */
export function countEventsUpTo(events: readonly { ts: number }[], ts: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid]!.ts <= ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface PlaybackState {
  /** Frames shown: the first `position` recorded frames (0..total). */
  position: number;
  total: number;
  playing: boolean;
  speed: Speed;
  /** While playing: the wall time the clock (re)started and the playback time it started from. */
  anchor?: { wall: number; at: number };
}

export type PlaybackAction =
  | { type: "play"; now: number }
  | { type: "pause" }
  | { type: "step"; delta: number }
  | { type: "seek"; position: number; now: number }
  | { type: "speed"; speed: Speed; now: number }
  | { type: "tick"; now: number }
  /** More frames were loaded; a player showing everything keeps showing everything. */
  | { type: "total"; total: number };

/** A new player: everything shown (a transcript opens complete, like the live view after a session). */
export function initialPlayback(total = 0): PlaybackState {
  return { position: total, total, playing: false, speed: "10x" };
}

const clamp = (n: number, total: number) => Math.max(0, Math.min(total, Math.round(n)));

/** Playback time at which `position` frames have been shown. */
const timeAt = (times: ArrayLike<number>, position: number) => (position > 0 ? times[position - 1]! : 0);

function start(state: PlaybackState, times: ArrayLike<number>, now: number): PlaybackState {
  if (state.speed === "instant") return { ...state, position: state.total, playing: false, anchor: undefined };
  // Playing from the end starts over, like any media player.
  const position = state.position >= state.total ? 0 : state.position;
  return { ...state, position, playing: true, anchor: { wall: now, at: timeAt(times, position) } };
}

export function playbackReducer(state: PlaybackState, action: PlaybackAction, times: ArrayLike<number>): PlaybackState {
  switch (action.type) {
    case "play":
      return state.total === 0 ? state : start(state, times, action.now);
    case "pause":
      return state.playing ? { ...state, playing: false, anchor: undefined } : state;
    case "step": {
      const position = clamp(state.position + action.delta, state.total);
      return { ...state, position, playing: false, anchor: undefined };
    }
    case "seek": {
      const next = { ...state, position: clamp(action.position, state.total) };
      return state.playing && next.position < next.total
        ? start(next, times, action.now)
        : { ...next, playing: false, anchor: undefined };
    }
    case "speed": {
      const next = { ...state, speed: action.speed };
      return state.playing || action.speed === "instant" ? start(next, times, action.now) : next;
    }
    case "tick": {
      if (!state.playing || !state.anchor || state.speed === "instant") return state;
      const t = state.anchor.at + (action.now - state.anchor.wall) * RATE[state.speed];
      const position = Math.max(state.position, Math.min(state.total, countUpTo(times, t)));
      if (position >= state.total) return { ...state, position: state.total, playing: false, anchor: undefined };
      return position === state.position ? state : { ...state, position };
    }
    case "total": {
      const following = state.position >= state.total && !state.playing;
      const total = Math.max(0, action.total);
      return { ...state, total, position: following ? total : Math.min(state.position, total) };
    }
  }
}

/** Milliseconds until the next frame is due while playing; undefined when nothing is. */
export function nextDelay(state: PlaybackState, times: ArrayLike<number>, now: number): number | undefined {
  if (!state.playing || !state.anchor || state.speed === "instant" || state.position >= state.total) return undefined;
  const due = state.anchor.wall + (times[state.position]! - state.anchor.at) / RATE[state.speed];
  return Math.max(0, due - now);
}

/**
 * Stderr and lifecycle events are shown up to the time of the last frame
 * shown; once every frame is shown and the transcript is complete, all of
 * them (the exit comes after the last frame).
 */
export function eventCutoff(
  frameTs: (i: number) => number,
  position: number,
  total: number,
  complete: boolean,
): number {
  if (position >= total && complete) return Infinity;
  return position > 0 ? frameTs(position - 1) : -Infinity;
}
