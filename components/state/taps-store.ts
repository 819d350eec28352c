/**
 * Tapped conversations (`acp-playground tap`) for the tab bar: one socket that
 * only follows the relay's `taps` list and turns injection on or off for a
 * tab (docs/relay-protocol.md#taps). Watching a tap is an ordinary tab whose
 * clientId names the tap; this store never touches a tab's own socket.
 */
import { io, type ManagerOptions, type Socket, type SocketOptions } from "socket.io-client";
import { WATCH_TAPS, type TapInfo } from "@/lib/contracts/tap-wire";
import type { Me } from "@/lib/contracts/transcript-meta";
import type { Ack } from "@/lib/contracts/wire";
import { TOKEN_KEY } from "../page-storage";
import { api } from "../transcripts/api";
import { SnapshotStore } from "./snapshot-store";

export interface TapsSnapshot {
  taps: readonly TapInfo[];
  /** Viewer clientIds (tabs) this page turned injection on for. */
  injecting: ReadonlySet<string>;
  /** Who the page's token is (GET /api/me): what it may do with a tap is tapRefusal's; unknown: the relay decides. */
  me?: Me;
  error?: string;
}

const INITIAL: TapsSnapshot = { taps: [], injecting: new Set() };

/** Opens the socket that follows the taps: the page's relay unless a test hands in a fake. */
export type OpenTapsSocket = (options: Partial<ManagerOptions & SocketOptions>) => Socket;
/** Asks who a token is: the page's relay unless a test hands in a fake. */
export type FetchMe = (token: string) => Promise<Me>;

export class TapsStore extends SnapshotStore<TapsSnapshot> {
  private socket?: Socket;

  constructor(
    private readonly openSocket: OpenTapsSocket = (options) => io(options),
    private readonly fetchMe: FetchMe = (token) => api(token).me(),
  ) {
    super(INITIAL);
  }

  static readonly serverSnapshot = INITIAL;

  /** Connects once the page has its token (TabsStore.init has taken it from the URL). */
  connect(): void {
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (this.socket || !token) return;
    const socket = this.openSocket({ auth: { token, watch: WATCH_TAPS }, transports: ["websocket"] });
    socket.on("taps", ({ taps }: { taps: TapInfo[] }) => this.set({ taps }));
    this.socket = socket;
    this.fetchMe(token).then(
      (me) => this.set({ me }),
      () => {},
    );
  }

  async setInjection(clientId: string, enabled: boolean): Promise<void> {
    const res = (await this.socket
      ?.timeout(10_000)
      .emitWithAck("tap:injection", { clientId, enabled })
      .catch((err: Error) => ({ ok: false, error: { message: err.message } }))) as
      Ack<{ injection: boolean }> | undefined;
    if (!res?.ok) {
      this.set({ error: res ? res.error.message : "not connected to the relay" });
      return;
    }
    const injecting = new Set(this.snapshot.injecting);
    if (res.injection) injecting.add(clientId);
    else injecting.delete(clientId);
    this.set({ injecting, error: undefined });
  }
}

let tapsStore: TapsStore | undefined;

export function getTapsStore(): TapsStore {
  tapsStore ??= new TapsStore();
  return tapsStore;
}
