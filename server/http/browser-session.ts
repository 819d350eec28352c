/**
 * A browser tab's session in the relay: the agent host it shows
 * (server/agents/agent-host.ts) and the tab's socket attached to it
 * (server/wire/attachment.ts), kept for a grace period after the tab leaves so
 * that a reload re-attaches to the same agent.
 */
import type { Socket } from "socket.io";
import type { ClientToServerEvents, ServerToClientEvents } from "../../lib/contracts/wire";
import type { AgentHost } from "../agents/agent-host";
import { Attachment } from "../wire/attachment";

export type RelaySocket = Socket<ClientToServerEvents, ServerToClientEvents>;

export class BrowserSession {
  private readonly attachment: Attachment<RelaySocket>;
  private unwatch: Array<() => void> = [];

  constructor(
    readonly clientId: string,
    private current: AgentHost,
    graceMs: number,
    /** Called once this session holds nothing worth keeping. */
    private readonly onDisposed: (session: BrowserSession) => void,
  ) {
    this.attachment = new Attachment({
      ms: graceMs,
      abandoned: () => void this.current.stop().finally(() => this.dispose()),
    });
    this.watch();
  }

  /** The agent this tab shows. */
  get host(): AgentHost {
    return this.current;
  }

  get attached(): boolean {
    return this.attachment.attached;
  }

  private watch(): void {
    const host = this.current;
    this.unwatch = [
      host.watch(this.attachment),
      // An agent that exits while no tab watches and none is expected back leaves nothing to keep.
      host.onExit(() => {
        if (!this.attachment.watched && !this.attachment.abandoning) this.dispose();
      }),
    ];
  }

  /**
   * A warm agent from the pool takes the place of this session's: the tab's
   * policies go with it, and the tab is re-attached to its log from the start.
   */
  useHost(warm: AgentHost, socket: RelaySocket): void {
    const previous = this.current;
    for (const stop of this.unwatch) stop();
    warm.answerer.setPolicies(previous.answerer.current);
    this.current = warm;
    this.watch();
    void previous.stop();
    this.attachment.emit("agent:started", warm.agentInfo!);
    this.attach(socket, 0);
  }

  attach(socket: RelaySocket, lastSeq: number): void {
    const host = this.current;
    this.attachment.attach(socket, lastSeq, host.log, {
      agent: host.running ? host.agentInfo : null,
      policies: host.answerer.current,
    });
  }

  detach(socket: RelaySocket): void {
    if (!this.attachment.detach(socket)) return;
    if (!this.attachment.watched && this.current.idle) this.dispose();
  }

  private dispose(): void {
    this.attachment.cancelGrace();
    for (const stop of this.unwatch) stop();
    this.onDisposed(this);
  }
}
