/**
 * Warm agents per profile: spawned and initialized ahead of time so that a
 * browser's Connect is instant. A pooled agent (its AgentHost) goes to one browser session
 * only; a replacement is spawned behind it. Only plain starts (no options, the
 * default cwd) are served from the pool: anything else changes the command line.
 */
import { initializeAgent } from "../../lib/features/connect/handshake";
import { specOf } from "../../lib/features/protocols/registry";
import { AgentDriver } from "./agent-driver";
import { AgentHost } from "./agent-host";
import type { ServerConfig } from "../config";
import type { Profiles } from "./profiles";
import type { TranscriptStore } from "../transcripts/transcript-store";

/** Consecutive failures after which a profile's pool stops trying. */
const MAX_FAILURES = 3;
const INITIALIZE_TIMEOUT_MS = 60_000;

interface Slot {
  profile: string;
  ready: AgentHost[];
  warming: number;
  failures: number;
}

export class AgentPool {
  private readonly slots = new Map<string, Slot>();
  /** Hosts still starting or initializing, so close() can stop them too. */
  private readonly warming = new Set<AgentHost>();
  /** Per ready host, the way to stop replacing it when it exits: once taken, its exit is its browser session's. */
  private readonly unwatch = new Map<AgentHost, () => void>();
  private closed = false;

  constructor(
    private readonly config: ServerConfig,
    private readonly profiles: Profiles,
    private readonly transcripts: TranscriptStore,
  ) {
    for (const [profile, size] of Object.entries(config.pool)) {
      // A warm agent is initialized ahead with ACP v1: a protocol that is not poolable (one negotiated
      // at Connect, as ACP v2) never gets a pool, whatever the configuration asks.
      const protocol = Object.hasOwn(config.profiles, profile) ? config.profiles[profile]!.protocol : undefined;
      if (size > 0 && !specOf(protocol).poolable) console.error(`warm pool: ${profile}: its protocol is never pooled`);
      else if (size > 0) this.slots.set(profile, { profile, ready: [], warming: 0, failures: 0 });
    }
  }

  /** Starts warming every configured pool. */
  fill(): void {
    for (const slot of this.slots.values()) this.top(slot);
  }

  size(profile: string): number {
    return this.slots.get(profile)?.ready.length ?? 0;
  }

  private top(slot: Slot): void {
    const want = this.config.pool[slot.profile] ?? 0;
    while (!this.closed && slot.failures < MAX_FAILURES && slot.ready.length + slot.warming < want) {
      slot.warming++;
      void this.warm(slot).finally(() => slot.warming--);
    }
  }

  private async warm(slot: Slot): Promise<void> {
    const session = new AgentHost(this.config, this.profiles, this.transcripts);
    this.warming.add(session);
    try {
      await this.warmUp(slot, session);
    } finally {
      this.warming.delete(session);
    }
  }

  private async warmUp(slot: Slot, session: AgentHost): Promise<void> {
    const started = await session.start({ profile: slot.profile });
    if (started.ok && started.agent.transcriptId) this.transcripts.unlisted.add(started.agent.transcriptId);
    if (!started.ok) {
      slot.failures++;
      console.error(`warm pool: ${slot.profile}: ${started.error.message}`);
      return;
    }
    if (this.closed) return this.discard(session);
    const driver = new AgentDriver(session);
    const reply = await initializeAgent(driver, {
      // What Connect advertises for this profile by default, so a warm agent is the one Connect would start.
      clientCapabilities: this.profiles.clientCapabilities(slot.profile),
      // A string id: never one the browser's counter hands out after it takes the agent.
      id: "pool-initialize",
      timeoutMs: INITIALIZE_TIMEOUT_MS,
    });
    driver.close();
    const initialized = reply.ok;
    if (!initialized || this.closed) {
      if (!initialized) slot.failures++;
      await this.discard(session);
      this.top(slot);
      return;
    }
    slot.failures = 0;
    slot.ready.push(session);
    // A warm agent that dies is replaced.
    this.unwatch.set(
      session,
      session.onExit(() => {
        const i = slot.ready.indexOf(session);
        if (i === -1) return;
        slot.ready.splice(i, 1);
        void this.discard(session);
        this.top(slot);
      }),
    );
  }

  /** A warm, initialized agent of `profile`, or undefined; a replacement starts warming. */
  take(profile: string): AgentHost | undefined {
    const slot = this.slots.get(profile);
    const host = slot?.ready.shift();
    if (host) {
      this.unwatch.get(host)?.();
      this.unwatch.delete(host);
      host.markPooled();
    }
    const transcriptId = host?.agentInfo?.transcriptId;
    if (transcriptId) this.transcripts.unlisted.delete(transcriptId);
    if (slot) this.top(slot);
    return host;
  }

  /** Stops an agent that never reached a user, and drops its (empty) transcript. */
  private async discard(session: AgentHost): Promise<void> {
    this.unwatch.delete(session);
    const id = session.agentInfo?.transcriptId;
    await session.stop();
    if (id) {
      this.transcripts.unlisted.delete(id);
      this.transcripts.delete(id);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.slots.values()].flatMap((s) => s.ready.splice(0)).concat([...this.warming]);
    await Promise.allSettled(all.map((s) => this.discard(s)));
  }
}
