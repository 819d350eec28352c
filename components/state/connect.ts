/**
 * Connect: start (pooled), initialize unless the pool did, authenticate with
 * the method the user chooses (when session/new asks for it, or first), then
 * session/new; for a profile speaking Codex's app-server, its own handshake
 * (lib/features/connect/flow.ts runs the steps). The user's choice comes
 * from the Connect panel through `answer`.
 */
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import type { ConnectProgress } from "@/lib/features/connect/connect-steps";
import { runConnect, sessionCwd } from "@/lib/features/connect/flow";
import type { AuthChoice, AuthChoiceRequest } from "@/lib/features/connect/handshake";
import { isObject } from "@/lib/protocol/json";
import { outcomeOf } from "@/lib/protocol/jsonrpc";
import { fail, ok } from "@/lib/protocol/result";
import type { Ack, AgentInfo, RelayInfo } from "@/lib/contracts/wire";
import type { FrameWindow } from "@/lib/folds/frame-log";
import type { RequestOptions } from "@/lib/protocol/request-port";
import type { RpcOutcome } from "@/lib/protocol/jsonrpc";
import type { Result } from "@/lib/protocol/result";
import { chosenProtocolVersion } from "./protocol-choice";
import { AGENT_METHODS } from "@/lib/protocol/methods";
import type { Frame } from "@/lib/protocol/frame";
import { protocolOf } from "@/lib/protocol/protocols";
import { specOf } from "@/lib/features/protocols/registry";

function findFrame(frames: Iterable<Frame>, match: (f: Frame) => boolean): Frame | undefined {
  for (const f of frames) if (match(f)) return f;
  return undefined;
}

/** Connect's progress, plus the question the panel must answer while Connect waits for it. */
export interface Handshake extends ConnectProgress {
  ask?: AuthChoiceRequest;
}

export interface ConnectOptions {
  profile?: string;
  options?: Record<string, unknown>;
  /** The session's cwd as typed: empty is the first workspace root, a relative path is inside it. */
  cwd: string;
  clientCapabilities: ClientCapabilities;
  /** Ask for an auth method before session/new. */
  authenticateFirst?: boolean;
  /** Values for an `env_var` method's variables: the agent is started with them (never pooled). */
  env?: Record<string, string>;
  /** False when clientCapabilities differ from the profile's defaults, which a warm agent was initialized with. */
  poolable?: boolean;
  /** Authenticate with this method when asked, without asking again (after a restart with its variables). */
  authMethodId?: string;
  /**
   * The protocol version to ask for: 1 (the default) or 2 (the v2 draft, never from the warm pool, which
   * initializes with v1). Absent: the one chosen in Connect's settings for the profile.
   */
  protocolVersion?: number;
}

/** What Connect asks of the tab's store (session-store.ts), which calls Connect: an interface, not an import back. */
export interface ConnectHost {
  relayInfo(): Promise<RelayInfo | undefined>;
  startAgent(
    profile: string | undefined,
    cwd: string | undefined,
    extra?: { options?: Record<string, unknown>; pooled?: boolean; env?: Record<string, string> },
  ): Promise<Ack<{ agent: AgentInfo }>>;
  getSnapshot(): { frames: FrameWindow };
  waitForFrame(match: (frame: Frame) => boolean, timeoutMs: number): Promise<Frame | undefined>;
  request(method: string, params: unknown, options?: RequestOptions): Promise<RpcOutcome>;
  notify(method: string, params: unknown): Promise<Result<number>>;
}

export async function connectAgent(
  store: ConnectHost,
  opts: ConnectOptions,
  progress: (handshake: Handshake) => void,
  /** Registers the function that answers the pending question (undefined once answered). */
  onAsk: (answer: ((choice: AuthChoice) => void) | undefined) => void,
): Promise<ConnectProgress> {
  // Loaded on demand: a value import of the SDK would put its validators in the page.
  const sdkVersion = (await import("@agentclientprotocol/sdk")).PROTOCOL_VERSION;
  let latest: ConnectProgress = { step: "start" };
  // Kept past the question, so the panel can name the method being used.
  let methods: ConnectProgress["authMethods"];
  let preset = opts.authMethodId;
  progress(latest);
  const info = await store.relayInfo();
  const profileName = opts.profile ?? info?.defaultProfile;
  const protocolVersion = opts.protocolVersion ?? chosenProtocolVersion(profileName);
  const protocol = protocolOf(info?.profiles.find((p) => p.name === profileName));
  // Resolved now, not when Connect was clicked: the relay's info may not have arrived then.
  const cwd = sessionCwd(opts.cwd, info?.workspaceRoots[0]);
  if (cwd === undefined) {
    const failed: ConnectProgress = {
      step: "failed",
      message: "the relay did not say its workspace root: reload the page",
    };
    progress(failed);
    return failed;
  }
  return runConnect(
    {
      start: async () => {
        const res = await store.startAgent(opts.profile, undefined, {
          options: opts.options,
          // The warm pool initializes agents with ACP's initialize: only a poolable protocol's come from it.
          pooled: !opts.env && opts.poolable !== false && protocolVersion === sdkVersion && specOf(protocol).poolable,
          env: opts.env,
        });
        return res.ok ? ok({ pooled: res.agent.pooled === true }) : fail(res.error.message);
      },
      pooledInitialize: async () => {
        const isInit = (f: Frame) =>
          f.dir === "from-agent" && f.kind === "response" && f.method === AGENT_METHODS.initialize;
        // The pool's answer is normally in the log already; else it is still to come.
        const frame = findFrame(store.getSnapshot().frames, isInit) ?? (await store.waitForFrame(isInit, 5_000));
        const outcome = frame ? outcomeOf(frame) : undefined;
        return outcome?.kind === "result" && isObject(outcome.result) ? outcome.result : undefined;
      },
      request: (method, params) => store.request(method, params),
      notify: (method, params) => store.notify(method, params),
      progress: (p) => {
        methods = p.authMethods ?? methods;
        latest = methods ? { ...p, authMethods: methods } : p;
        progress(latest);
      },
      chooseAuth: (request) => {
        if (preset && request.methods.some((m) => m.id === preset)) {
          const methodId = preset;
          preset = undefined;
          return Promise.resolve({ type: AGENT_METHODS.authenticate, methodId });
        }
        return new Promise<AuthChoice>((resolve) => {
          progress({ ...latest, ask: request });
          onAsk((choice) => {
            onAsk(undefined);
            progress(latest);
            resolve(choice);
          });
        });
      },
    },
    {
      protocol,
      cwd,
      protocolVersion,
      clientCapabilities: opts.clientCapabilities,
      authenticateFirst: opts.authenticateFirst,
    },
  );
}
