/**
 * One long relay operation (a re-run or a probe) on a socket of its own: a
 * fresh browser session, so it never touches the playground's tabs or agents.
 * Frames the relay streams meanwhile are counted for a progress line.
 */
import type { Ack, AgentInfo } from "@/lib/contracts/wire";
import { openRelaySocket, type OpenSocket } from "../state/relay-connection";

export interface RelayProgress {
  frames: number;
  agent?: AgentInfo;
}

type Event = "transcript:rerun" | "agent:probe";

const failed = (message: string) => ({ ok: false as const, error: { code: "internal" as const, message } });

export function relayCall<T extends object>(
  token: string,
  event: Event,
  payload: object,
  onProgress?: (p: RelayProgress) => void,
  signal?: AbortSignal,
  /** The page's relay unless a test hands in a fake. */
  openSocket: OpenSocket = openRelaySocket,
): Promise<Ack<T>> {
  return new Promise((resolve) => {
    // Cancelled before it began: no socket, no session on the relay.
    if (signal?.aborted) return resolve(failed("cancelled"));
    const socket = openSocket({
      auth: { token },
      transports: ["websocket", "polling"],
      forceNew: true,
      reconnection: false,
    });
    const progress: RelayProgress = { frames: 0 };
    let settled = false;
    const finish = (res: Ack<T>) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", cancel);
      socket.disconnect();
      resolve(res);
    };
    const cancel = () => finish(failed("cancelled"));
    signal?.addEventListener("abort", cancel);
    socket.on("connect_error", (err) =>
      finish(
        failed(
          err.message === "unauthorized" ? "the access token was refused" : `cannot reach the relay: ${err.message}`,
        ),
      ),
    );
    socket.on("disconnect", (reason) => finish(failed(`connection lost: ${reason}`)));
    socket.on("agent:started", (agent) => {
      progress.agent = agent;
      onProgress?.({ ...progress });
    });
    socket.on("frames", (frames) => {
      progress.frames += frames.length;
      onProgress?.({ ...progress });
    });
    socket.once("connect", () => {
      const ack = (res: unknown) => finish(res as Ack<T>);
      // Both events take one payload and an ack; the union of their signatures needs the cast.
      (socket.emit as (e: Event, p: object, cb: (res: unknown) => void) => void)(event, payload, ack);
    });
  });
}
