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
    this.socket.on("agent:attached", (e) => (this.attached = e as never));
    this.socket.on("watch:ended", ({ message }) => (this.ended = message));
    this.socket.on("watch:paused", () => this.states.push("paused"));
    this.socket.on("watch:resumed", () => this.states.push("resumed"));
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
