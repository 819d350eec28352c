import { describe, expect, it } from "vitest";
import {
  countEventsUpTo,
  countUpTo,
  eventCutoff,
  initialPlayback,
  MAX_GAP_MS,
  nextDelay,
  playbackReducer,
  playbackTimes,
  type PlaybackAction,
  type PlaybackState,
} from "./playback";

// Frames at 0, 100, 100, 350 ms, then one after a long idle gap.
const ts = [1000, 1100, 1100, 1350, 1350 + 60_000];
const times = playbackTimes(ts);
const run = (state: PlaybackState, ...actions: PlaybackAction[]) =>
  actions.reduce((s, a) => playbackReducer(s, a, times), state);

describe("playbackTimes", () => {
  it("keeps recorded gaps and shortens idle ones", () => {
    expect([...times]).toEqual([0, 100, 100, 350, 350 + MAX_GAP_MS]);
  });
  it("never goes backwards when the clock jumped", () => {
    expect([...playbackTimes([10, 5, 20])]).toEqual([0, 0, 15]);
  });
});

describe("countUpTo", () => {
  it("counts sorted values <= x", () => {
    expect(countUpTo(times, -1)).toBe(0);
    expect(countUpTo(times, 0)).toBe(1);
    expect(countUpTo(times, 100)).toBe(3);
    expect(countUpTo(times, 349)).toBe(3);
    expect(countUpTo(times, 1e9)).toBe(5);
    expect(countUpTo([], 5)).toBe(0);
  });
});

describe("countEventsUpTo", () => {
  it("counts ts-ordered events at or before a time", () => {
    const events = [{ ts: 1 }, { ts: 2 }, { ts: 2 }, { ts: 5 }];
    expect(countEventsUpTo(events, -Infinity)).toBe(0);
    expect(countEventsUpTo(events, 2)).toBe(3);
    expect(countEventsUpTo(events, Infinity)).toBe(4);
  });
});

describe("playbackReducer", () => {
  const full = initialPlayback(5);

  it("opens showing everything, paused", () => {
    expect(full).toMatchObject({ position: 5, total: 5, playing: false });
  });

  it("play from the end starts over; frames follow recorded time at 1x", () => {
    let s = run(full, { type: "speed", speed: "1x", now: 0 }, { type: "play", now: 0 });
    expect(s).toMatchObject({ position: 0, playing: true });
    expect(nextDelay(s, times, 0)).toBe(0);
    s = run(s, { type: "tick", now: 0 });
    expect(s.position).toBe(1);
    expect(nextDelay(s, times, 0)).toBe(100);
    s = run(s, { type: "tick", now: 99 });
    expect(s.position).toBe(1);
    s = run(s, { type: "tick", now: 100 });
    expect(s.position).toBe(3); // two frames at the same time arrive together
    expect(nextDelay(s, times, 120)).toBe(230);
  });

  it("10x runs ten times faster and stops at the end", () => {
    let s = run({ ...full, position: 0, speed: "10x" }, { type: "play", now: 1000 });
    s = run(s, { type: "tick", now: 1035 });
    expect(s.position).toBe(4);
    expect(nextDelay(s, times, 1035)).toBe(MAX_GAP_MS / 10);
    s = run(s, { type: "tick", now: 1035 + MAX_GAP_MS / 10 });
    expect(s).toMatchObject({ position: 5, playing: false });
    expect(nextDelay(s, times, 5000)).toBeUndefined();
  });

  it("instant shows everything at once", () => {
    const s = run({ ...full, position: 1 }, { type: "speed", speed: "instant", now: 0 });
    expect(s).toMatchObject({ position: 5, playing: false });
    expect(run({ ...s, position: 0 }, { type: "play", now: 0 })).toMatchObject({ position: 5, playing: false });
  });

  it("step and step back pause and stay in range", () => {
    let s = run({ ...full, position: 0 }, { type: "step", delta: -1 });
    expect(s.position).toBe(0);
    s = run(s, { type: "step", delta: 1 }, { type: "step", delta: 1 });
    expect(s.position).toBe(2);
    s = run(s, { type: "speed", speed: "1x", now: 0 }, { type: "play", now: 0 }, { type: "step", delta: -1 });
    expect(s).toMatchObject({ position: 1, playing: false });
    expect(run({ ...full }, { type: "step", delta: 1 }).position).toBe(5);
  });

  it("seeking while playing re-anchors the clock at the new position", () => {
    let s = run(
      { ...full, position: 0, speed: "1x" },
      { type: "play", now: 0 },
      { type: "seek", position: 3, now: 500 },
    );
    expect(s).toMatchObject({ position: 3, playing: true, anchor: { wall: 500, at: 100 } });
    s = run(s, { type: "tick", now: 749 });
    expect(s.position).toBe(3);
    s = run(s, { type: "tick", now: 750 });
    expect(s.position).toBe(4);
    expect(run(s, { type: "seek", position: 99, now: 800 })).toMatchObject({ position: 5, playing: false });
  });

  it("pause keeps the position; ticks after it change nothing", () => {
    const s = run(
      { ...full, position: 0, speed: "1x" },
      { type: "play", now: 0 },
      { type: "tick", now: 100 },
      { type: "pause" },
    );
    expect(s).toMatchObject({ position: 3, playing: false });
    expect(run(s, { type: "tick", now: 10_000 })).toBe(s);
  });

  it("while loading, a player at the end follows the new total", () => {
    let s = initialPlayback(0);
    s = run(s, { type: "total", total: 3 });
    expect(s.position).toBe(3);
    s = run(s, { type: "step", delta: -1 }, { type: "total", total: 5 });
    expect(s.position).toBe(2);
  });

  it("play with nothing loaded does nothing", () => {
    const empty = initialPlayback(0);
    expect(run(empty, { type: "play", now: 0 })).toBe(empty);
  });
});

describe("eventCutoff", () => {
  const at = (i: number) => ts[i]!;
  it("is the last shown frame's time, everything at the end of a complete transcript", () => {
    expect(eventCutoff(at, 0, 5, true)).toBe(-Infinity);
    expect(eventCutoff(at, 2, 5, true)).toBe(1100);
    expect(eventCutoff(at, 5, 5, true)).toBe(Infinity);
    expect(eventCutoff(at, 5, 5, false)).toBe(ts[4]);
  });
});
