/**
 * Connect, the newcomer's path from nothing to a session: start the agent
 * (from the warm pool when possible), then the client handshake of the
 * agent's protocol. For ACP (./handshake.ts): initialize it unless the pool
 * already did, authenticate when session/new says it is required (or first,
 * when the user asks) with the method the user chooses, then open a session.
 * For Codex's app-server (./protocols/codex-app-server/handshake.ts): initialize, initialized,
 * thread/start, the thread playing the session. Pure orchestration over
 * injected steps, so it is tested without a relay; the session store provides
 * the real ones.
 */
import { specOf } from "../protocols/registry";
import { within } from "./handshake";
import { DEFAULT_CONNECT_TIMEOUTS, type ConnectDeps, type ConnectInput, type ConnectProgress } from "./connect-steps";
import { seconds } from "../../protocol/request-port";

export async function runConnect(deps: ConnectDeps, input: ConnectInput): Promise<ConnectProgress> {
  const limits = { ...DEFAULT_CONNECT_TIMEOUTS, ...input.timeouts };
  deps.progress({ step: "start" });
  const started = await within(deps.start(), limits.start);
  const failed = (message: string): ConnectProgress => {
    const p: ConnectProgress = { step: "failed", message };
    deps.progress(p);
    return p;
  };
  if (!started.ok) return failed(`start timed out after ${seconds(limits.start)}`);
  if (!started.value.ok) return failed(started.value.error);
  const pooled = started.value.value.pooled;
  const end = await specOf(input.protocol).connect(deps, input, limits, { pooled });
  return { ...end.progress, pooled };
}

/**
 * session/new needs an absolute cwd: empty is the first workspace root, a relative path is inside it;
 * undefined while the root is not known (never "/", which would open the session on the whole disk).
 */
export function sessionCwd(input: string, root: string | undefined): string | undefined {
  const t = input.trim();
  if (t.startsWith("/")) return t;
  if (root === undefined) return undefined;
  if (t === "") return root;
  return `${root.replace(/\/+$/, "")}/${t.replace(/^\.\/+/, "")}`;
}
