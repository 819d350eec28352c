/** A watch link's client for the tests: a TestClient that also keeps how its stream was attached, paused and ended. */
import { TestClient } from "./relay-harness";

export class Watcher extends TestClient {
  attached?: { agent: { cwd: string; command: string } | null; lastSeq: number };
  ended?: string;
  /** `watch:paused` and `watch:resumed`, in order. */
  readonly states: string[] = [];
  disconnectReason?: string;
  /** Resolves with the reason once the relay has disconnected this watcher. */
  readonly disconnected: Promise<string>;

  constructor(
    url: string,
    token: string,
    extra: Record<string, unknown> = {},
    options: ConstructorParameters<typeof TestClient>[2] = {},
  ) {
    super(url, { watchLink: token, ...extra }, options);
    // Each wakes the waiters: `agent:attached` may be the last event a watcher gets (nothing left to resend).
    this.socket.on("agent:attached", (e) => {
      this.attached = e;
      this.notify();
    });
    this.socket.on("watch:ended", ({ message }) => {
      this.ended = message;
      this.notify();
    });
    this.socket.on("watch:paused", () => {
      this.states.push("paused");
      this.notify();
    });
    this.socket.on("watch:resumed", () => {
      this.states.push("resumed");
      this.notify();
    });
    this.disconnected = new Promise((resolve) =>
      this.socket.on("disconnect", (reason) => {
        this.disconnectReason = reason;
        resolve(reason);
      }),
    );
  }

  text(): string {
    return [...this.frames.map((f) => f.raw), ...this.stderr].join("\n");
  }
}
