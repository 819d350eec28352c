/**
 * Turn waterfall: where a prompt turn's time went, on one time axis. Folds frames into per-turn
 * timeline items (the prompt, time to first chunk, thought and message streams, tool calls with
 * their permission wait, every agent-to-client request and its answer, the end with its stop
 * reason); lib/folds/waterfall-layout.ts sums them up and lays them out.
 *
 * Each protocol reads its own turns (the descriptor's `turnReader`): ACP's in
 * lib/folds/session-view/waterfall.ts, Codex's app-server's in lib/folds/codex-app-server/waterfall.ts.
 * A frame of another protocol is nothing to a builder (a log is one agent's, of one protocol).
 *
 * The builder is fed frames in seq order and keeps its own state (a growing
 * log is folded once); `turns` returns the turns as they stand.
 */
import type { Frame } from "../protocol/frame";
import { isObject } from "../protocol/json";
import { descriptorOf, type ProtocolDescriptor, type ProtocolName } from "../protocol/protocols";
import { appServerTurns } from "./codex-app-server/waterfall";
import { acpTurns } from "./session-view/waterfall";
import { TurnLog, type TurnReader, type TurnReaderOf, type WaterfallTurn } from "./waterfall-turns";

export type { ClientRequestItem, StreamBand, StreamKind, ToolItem, WaterfallTurn } from "./waterfall-turns";
export * from "./waterfall-layout";

/** The turn readers, by the descriptor's `turnReader`. */
export const TURN_READERS: Readonly<Record<ProtocolDescriptor["turnReader"], TurnReaderOf>> = {
  acp: acpTurns,
  appServer: appServerTurns,
};

export class WaterfallBuilder {
  readonly #log = new TurnLog();
  readonly #reader: TurnReader;
  /** Highest seq folded in; 0 before any. */
  lastSeq = 0;

  /** A builder for one protocol's log (the log's agent's protocol). */
  constructor(protocol: ProtocolName) {
    this.#reader = TURN_READERS[descriptorOf(protocol).turnReader](this.#log);
  }

  get turns(): readonly WaterfallTurn[] {
    return this.#log.turns;
  }

  add(f: Frame): void {
    if (f.seq <= this.lastSeq) return;
    this.lastSeq = f.seq;
    const m = f.message;
    if (!isObject(m)) return;
    this.#reader.add(f, m, isObject(m.params) ? m.params : {});
  }

  /**
   * Forgets an ended turn and what is kept for it: a streaming reader that has taken it
   * (lib/features/otel) folds a long recording in memory bounded by its running turns.
   */
  release(t: WaterfallTurn): void {
    if (this.#log.release(t)) this.#reader.release(t);
  }
}

export function buildWaterfall(frames: Iterable<Frame>, protocol: ProtocolName): WaterfallBuilder {
  const b = new WaterfallBuilder(protocol);
  for (const f of frames) b.add(f);
  return b;
}
