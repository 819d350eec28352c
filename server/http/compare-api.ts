/**
 * /api/comparisons (docs/relay-protocol.md#http-api): saved comparisons, their
 * share links, and fresh workspaces for a comparison's two agents (removed once
 * the comparison is done: CompareWorkspaces). Every route needs the access
 * token but `GET /api/comparisons/:id/shared?token=`, which a comparison's
 * share link opens.
 */
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, realpathSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { comparisonInput } from "../../lib/contracts/compare-format";
import { readJsonBody, sendError, sendJson } from "../wire/http-io";
import { comparisonStoreBeside } from "../transcripts/comparison-store";
import { comparisonRefusal } from "../transcripts/comparison-links";
import type { Me } from "../../lib/contracts/transcript-meta";
import type { Relay } from "./relay";

const BODY_LIMIT = 256 * 1024;

/** Where a comparison's agents work, under the first workspace root (never inside each other). */
export const COMPARE_WORKSPACES = path.join(".acp-playground", "compare");

/** Why a compare workspace is not made or removed: a component on its way is a link, or not a directory. */
export class UnsafeCompareWorkspace extends Error {}

/**
 * `parts` under the real `root`, every component a real directory, none a
 * symbolic link: a repository could plant `.acp-playground/compare` as a link
 * to anywhere, and the relay would make and later remove directories there.
 * Missing components are made (mode 0700) when `make` is set.
 */
function realDirectoryPath(root: string, parts: string[], make: boolean): string {
  let dir = realpathSync(root);
  for (const part of parts) {
    dir = path.join(dir, part);
    let stat = lstatSync(dir, { throwIfNoEntry: false });
    if (!stat && make) {
      try {
        mkdirSync(dir, { mode: 0o700 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      stat = lstatSync(dir, { throwIfNoEntry: false });
    }
    if (!stat) throw new UnsafeCompareWorkspace(`${dir} does not exist`);
    if (stat.isSymbolicLink())
      throw new UnsafeCompareWorkspace(
        `${dir} is a symbolic link: compare workspaces are made and removed only through real directories inside the workspace root (remove the link)`,
      );
    if (!stat.isDirectory()) throw new UnsafeCompareWorkspace(`${dir} is not a directory`);
  }
  return dir;
}

/**
 * Two new empty directories, one per side: `cwd` relative to the first root
 * (as agent:start takes it), `paths` absolute (for session/new). Throws
 * UnsafeCompareWorkspace when a component on the way is a link or not a directory.
 */
export function makeSideWorkspaces(root: string): { cwd: [string, string]; paths: [string, string] } {
  const parts = [...COMPARE_WORKSPACES.split(path.sep), `${Date.now()}-${randomBytes(4).toString("hex")}`];
  const paths = ["a", "b"].map((s) => realDirectoryPath(root, [...parts, s], true)) as [string, string];
  const real = realpathSync(root);
  return { cwd: paths.map((p) => path.relative(real, p)) as [string, string], paths };
}

export interface CompareWorkspaceTimes {
  /** How often the relay looks whether a comparison's agents are done. */
  intervalMs: number;
  /** A workspace whose two agents never both started is removed this long after it was made (once none runs). */
  unusedMs: number;
  /** A workspace this relay did not make (an earlier run's, cut short) is removed this long after it was made. */
  leftoverMs: number;
}

const TIMES: CompareWorkspaceTimes = { intervalMs: 1_000, unusedMs: 10 * 60_000, leftoverMs: 24 * 60 * 60_000 };

/**
 * Removes a workspace, whatever the agent left in it (links are removed, not
 * followed). What cannot be removed (a directory the agent made read-only) is
 * left and said once: this runs on a timer, where a throw would end the relay.
 */
function remove(root: string, dir: string): boolean {
  try {
    // Checked again at removal: a link planted since then is refused, never followed.
    const rel = path.relative(realpathSync(root), dir);
    if (rel.startsWith("..") || path.isAbsolute(rel) || realDirectoryPath(root, rel.split(path.sep), false) !== dir)
      throw new UnsafeCompareWorkspace(`${dir} is not under the compare directory of ${root}`);
    rmSync(dir, { recursive: true, force: true });
    return true;
  } catch (err) {
    console.warn(`Could not remove the compare workspace ${dir}: ${(err as Error).message}`);
    return false;
  }
}

const inside = (dir: string, cwd: string) => cwd === dir || cwd.startsWith(`${dir}${path.sep}`);

/**
 * The throw-away workspaces of /compare runs, removed once the comparison is
 * done: a saved comparison is its two transcripts, and nothing shows what the
 * agents left in their directories. A workspace goes once both sides' agents
 * have run in it and none runs any more (the compare page stops both once
 * they have answered); if one side never started, once none runs and
 * `unusedMs` have passed. Workspaces an earlier relay left behind go after
 * `leftoverMs` when the next is made.
 */
export class CompareWorkspaces {
  private readonly made = new Map<
    string,
    { root: string; at: number; sides: [string, string]; seen: [boolean, boolean] }
  >();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** The working directories of the agents running now. */
    private readonly runningCwds: () => Iterable<string>,
    private readonly times: CompareWorkspaceTimes = TIMES,
  ) {}

  /** Two new side workspaces under `root`, watched until they are done. */
  make(root: string, now = Date.now()): { cwd: [string, string]; paths: [string, string] } {
    this.removeLeftovers(root, now);
    const made = makeSideWorkspaces(root);
    this.made.set(path.dirname(made.paths[0]), { root, at: now, sides: made.paths, seen: [false, false] });
    this.timer ??= setInterval(() => this.sweep(), this.times.intervalMs).unref();
    return made;
  }

  /** The workspaces being watched (their base directories). */
  get watched(): string[] {
    return [...this.made.keys()];
  }

  /** Removes the workspaces that are done; answers their base directories. */
  sweep(now = Date.now()): string[] {
    const cwds = [...this.runningCwds()];
    const removed: string[] = [];
    for (const [base, w] of this.made) {
      const busy = w.sides.map((side) => cwds.some((cwd) => inside(side, cwd)));
      busy.forEach((b, i) => b && (w.seen[i] = true));
      if (busy.some(Boolean)) continue;
      if (!(w.seen[0] && w.seen[1]) && now - w.at < this.times.unusedMs) continue;
      this.made.delete(base);
      if (remove(w.root, base)) removed.push(base);
    }
    if (this.made.size === 0) this.stop();
    return removed;
  }

  /** Stops watching (the workspaces stay). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** `<stamp>-<hex>` directories under the root's compare directory, made long ago, that no agent of this relay uses. */
  private removeLeftovers(root: string, now: number): void {
    let dir: string;
    let names: string[];
    try {
      // A planted link here would have leftovers removed wherever it points: make() refuses it next.
      dir = realDirectoryPath(root, COMPARE_WORKSPACES.split(path.sep), false);
      names = readdirSync(dir);
    } catch {
      return;
    }
    const cwds = [...this.runningCwds()];
    for (const name of names) {
      const stamp = /^(\d{13})-[0-9a-f]{8}$/.exec(name)?.[1];
      const base = path.join(dir, name);
      if (!stamp || now - Number(stamp) < this.times.leftoverMs) continue;
      let real: string;
      try {
        if (!lstatSync(base).isDirectory()) continue;
        real = realpathSync(base);
      } catch {
        continue;
      }
      if (this.made.has(real) || cwds.some((cwd) => inside(real, cwd))) continue;
      remove(root, base);
    }
  }
}

const workspacesOf = new WeakMap<Relay, CompareWorkspaces>();

/** The relay's compare workspaces: those its running agents use are kept. */
export function compareWorkspaces(relay: Relay, times?: CompareWorkspaceTimes): CompareWorkspaces {
  let workspaces = workspacesOf.get(relay);
  if (!workspaces) {
    workspaces = new CompareWorkspaces(function* () {
      for (const session of relay.sessions.values()) {
        const cwd = session.host.running ? session.host.agentInfo?.cwd : undefined;
        if (cwd) yield cwd;
      }
    }, times);
    workspacesOf.set(relay, workspaces);
  }
  return workspaces;
}

export async function handleComparisonApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  relay: Relay,
  /** Who the request's token is (server/http/identities.ts); undefined: no one. */
  who: Me | undefined,
): Promise<void> {
  const parts = url.pathname.split("/").filter(Boolean).slice(2); // drop "api", "comparisons"
  const method = req.method ?? "GET";
  const store = comparisonStoreBeside(relay.transcripts);

  if (parts.length === 2 && parts[1] === "shared" && method === "GET") {
    const shared = store.shared(parts[0]!, url.searchParams.get("token"));
    return shared ? sendJson(res, 200, shared) : sendError(res, 404, "not_found", "no such shared comparison");
  }
  if (!who) return sendError(res, 401, "unauthorized", "unauthorized");
  /** Both transcripts as the rule needs them (comparisonRefusal). */
  const sidesOf = (c: { sides: ReadonlyArray<{ transcriptId: string }> }) =>
    c.sides.map((s) => ({ id: s.transcriptId, owner: relay.transcripts.meta(s.transcriptId)?.owner }));

  if (parts.length === 0 && method === "GET") return sendJson(res, 200, { comparisons: store.list() });
  if (parts.length === 0 && method === "POST") {
    const body = await readJsonBody(req, comparisonInput, BODY_LIMIT);
    if (!body.ok) return sendError(res, 400, "invalid_payload", body.error);
    const why = comparisonRefusal(who, "compare", undefined, sidesOf(body.value));
    if (why) return sendError(res, 403, "not_owner", why);
    const saved = store.save(body.value, who.owner);
    if ("missing" in saved) return sendError(res, 400, "not_found", `no transcript ${saved.missing}`);
    return sendJson(res, 201, saved);
  }
  if (parts.length === 1 && parts[0] === "workspaces" && method === "POST") {
    const root = (await relay.info()).workspaceRoots[0];
    if (!root) return sendError(res, 409, "bad_cwd", "no workspace root is configured");
    try {
      return sendJson(res, 201, compareWorkspaces(relay).make(root));
    } catch (err) {
      if (err instanceof UnsafeCompareWorkspace) return sendError(res, 409, "bad_cwd", err.message);
      throw err;
    }
  }
  const id = parts[0];
  if (id === undefined) return sendError(res, 404, "not_found", `no route: ${method} ${url.pathname}`);
  if (parts.length === 1) {
    const record = store.get(id);
    if (!record) return sendError(res, 404, "not_found", `no comparison ${id.slice(0, 80)}`);
    if (method === "GET") return sendJson(res, 200, record);
    const why = method === "DELETE" ? comparisonRefusal(who, "delete", record, []) : undefined;
    if (why) return sendError(res, 403, "not_owner", why);
    if (method === "DELETE")
      return store.delete(id) ? void res.writeHead(204).end() : sendError(res, 404, "not_found", id);
  }
  if (parts.length === 2 && parts[1] === "share") {
    const current = method === "POST" || method === "DELETE" ? store.get(id) : undefined;
    const why = current && comparisonRefusal(who, method === "POST" ? "share" : "unshare", current, sidesOf(current));
    if (why) return sendError(res, 403, "not_owner", why);
    const record = method === "POST" ? store.share(id) : method === "DELETE" ? store.unshare(id) : undefined;
    if (record) return sendJson(res, 200, record);
    if (method === "POST" || method === "DELETE")
      return sendError(res, 404, "not_found", `no comparison ${id.slice(0, 80)} (or one of its transcripts is gone)`);
  }
  return sendError(res, 404, "not_found", `no route: ${method} ${url.pathname}`);
}
