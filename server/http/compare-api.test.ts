import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ComparisonInput } from "../../lib/contracts/compare-format";
import { COMPARE_WORKSPACES, compareWorkspaces, CompareWorkspaces, handleComparisonApi } from "./compare-api";
import type { Relay } from "./relay";
import { bearerToken } from "./security";
import { tokenMatches } from "../tokens";
import { TranscriptStore } from "../transcripts/transcript-store";
import { serialize } from "../../lib/contracts/transcript";
import { testHeader } from "../../test/transcripts";

const fsControl = vi.hoisted(() => ({ failNextRm: false }));
vi.mock("node:fs", async (original) => {
  const fs = await original<typeof import("node:fs")>();
  return {
    ...fs,
    rmSync: (...args: Parameters<typeof fs.rmSync>) => {
      if (fsControl.failNextRm) {
        fsControl.failNextRm = false;
        throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
      }
      return fs.rmSync(...args);
    },
  };
});

const TOKEN = "test-token";
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const temp = (prefix: string) => {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** What the API uses of a relay: its transcripts, workspace roots, and sessions whose agents may run. */
function fakeRelay() {
  const data = temp("acp-compare-api-data-");
  const root = temp("acp-compare-api-root-");
  const transcripts = new TranscriptStore(data, {});
  const agents = new Map<string, { running: boolean; agentInfo: { cwd: string } | null }>();
  // A session's host is what runs an agent.
  const sessions = { values: () => [...agents.values()].map((host) => ({ host })) };
  const relay = {
    transcripts,
    sessions,
    info: () => ({ workspaceRoots: [root] }),
  } as unknown as Relay;
  return { relay, root, transcripts, agents };
}

async function serve(relay: Relay) {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, "http://127.0.0.1");
    void handleComparisonApi(req, res, url, relay, tokenMatches(bearerToken(req), TOKEN) ? {} : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/comparisons`;
  return {
    /** With the access token. */
    api: (route: string, method = "GET", body?: unknown) =>
      fetch(`${base}${route}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    /** As a stranger with a share link. */
    open: (id: string, token: string) => fetch(`${base}/${id}/shared?token=${encodeURIComponent(token)}`),
  };
}

const header = (id: string) => serialize(testHeader({ id }));

describe("comparison share links over HTTP", () => {
  it("a comparison link dies with a transcript link it was shared with, and sharing that transcript again does not revive it", async () => {
    const { relay, transcripts } = fakeRelay();
    for (const id of ["t-a", "t-b"]) writeFileSync(transcripts.file(id), header(id));
    const { api, open } = await serve(relay);
    const input: ComparisonInput = {
      prompt: "hi",
      sides: [
        { label: "A", profile: "p", transcriptId: "t-a" },
        { label: "B", profile: "p", transcriptId: "t-b" },
      ],
    };
    transcripts.share("t-a");
    transcripts.share("t-b");
    const { id } = (await (await api("", "POST", input)).json()) as { id: string };
    const { shareToken } = (await (await api(`/${id}/share`, "POST")).json()) as { shareToken: string };
    expect((await open(id, shareToken)).status).toBe(200);
    // Revoked (as DELETE /api/transcripts/:id/share does), then shared again: a new transcript link.
    transcripts.unshare("t-a");
    expect((await open(id, shareToken)).status).toBe(404);
    transcripts.share("t-a");
    expect((await open(id, shareToken)).status).toBe(404);
  });
});

describe("/compare workspaces", () => {
  it("removes a comparison's workspace once both its agents have run and stopped", async () => {
    const { relay, root, agents } = fakeRelay();
    const workspaces = compareWorkspaces(relay, { intervalMs: 20, unusedMs: 60_000, leftoverMs: 60_000 });
    cleanup.push(() => workspaces.stop());
    const { api } = await serve(relay);
    const res = await api("/workspaces", "POST");
    expect(res.status).toBe(201);
    const { paths } = (await res.json()) as { paths: [string, string] };
    const base = path.dirname(paths[0]);
    expect(path.dirname(base)).toBe(path.join(root, COMPARE_WORKSPACES));
    writeFileSync(path.join(paths[0], "hello.txt"), "written by side A\n");

    // Not started yet, then running: kept.
    expect(workspaces.sweep()).toEqual([]);
    agents.set("a", { running: true, agentInfo: { cwd: paths[0] } });
    agents.set("b", { running: true, agentInfo: { cwd: path.join(paths[1], "sub") } });
    expect(workspaces.sweep()).toEqual([]);
    // One done, the other still answering: kept.
    agents.get("a")!.running = false;
    expect(workspaces.sweep()).toEqual([]);
    expect(existsSync(base)).toBe(true);
    // Both done: gone, on the relay's own clock too (no sweep called).
    agents.get("b")!.running = false;
    for (let i = 0; i < 100 && existsSync(base); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(base)).toBe(false);
    expect(workspaces.watched).toEqual([]);
  });

  it("removes a workspace a side never started in once no agent uses it and the grace has passed", () => {
    const root = temp("acp-compare-ws-");
    const cwds: string[] = [];
    const workspaces = new CompareWorkspaces(() => cwds, { intervalMs: 60_000, unusedMs: 1_000, leftoverMs: 5_000 });
    cleanup.push(() => workspaces.stop());
    const { paths } = workspaces.make(root, 0);
    const base = path.dirname(paths[0]);
    cwds.push(paths[0]);
    expect(workspaces.sweep(500)).toEqual([]);
    // Side B never started; A is still running past the grace: kept.
    expect(workspaces.sweep(2_000)).toEqual([]);
    cwds.length = 0;
    expect(workspaces.sweep(2_000)).toEqual([base]);
    expect(existsSync(base)).toBe(false);
  });

  it("leaves what it cannot remove, saying so, and goes on", () => {
    const root = temp("acp-compare-ws-");
    const workspaces = new CompareWorkspaces(() => [], { intervalMs: 60_000, unusedMs: 0, leftoverMs: 5_000 });
    cleanup.push(() => workspaces.stop());
    const { paths } = workspaces.make(root, 0);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    cleanup.push(() => warn.mockRestore());
    // Root removes anything: the refusal is made up.
    fsControl.failNextRm = true;
    expect(() => workspaces.sweep(1)).not.toThrow();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(path.dirname(paths[0])));
    expect(workspaces.watched).toEqual([]);
  });

  it("removes workspaces an earlier relay left behind, once old, when a new one is made", () => {
    const root = temp("acp-compare-ws-");
    const dir = path.join(root, COMPARE_WORKSPACES);
    const now = Date.now();
    const old = path.join(dir, `${now - 10_000}-0123abcd`);
    const recent = path.join(dir, `${now - 1_000}-0123abcd`);
    const other = path.join(dir, "not-ours");
    for (const d of [old, recent, other]) mkdirSync(path.join(d, "a"), { recursive: true });
    const workspaces = new CompareWorkspaces(() => [], { intervalMs: 60_000, unusedMs: 1_000, leftoverMs: 5_000 });
    cleanup.push(() => workspaces.stop());
    const { paths } = workspaces.make(root, now);
    expect(readdirSync(dir).sort()).toEqual(
      [path.basename(recent), path.basename(path.dirname(paths[0])), "not-ours"].sort(),
    );
  });

  it("refuses a planted link on the way to the compare directory, creating nothing outside the root", async () => {
    for (const planted of [".acp-playground", COMPARE_WORKSPACES]) {
      const { relay, root } = fakeRelay();
      const outside = temp("acp-compare-outside-");
      mkdirSync(path.dirname(path.join(root, planted)), { recursive: true });
      symlinkSync(outside, path.join(root, planted));
      const { api } = await serve(relay);
      const res = await api("/workspaces", "POST");
      expect(res.status, planted).toBe(409);
      expect(await res.json()).toEqual({
        error: {
          code: "bad_cwd",
          message: `${path.join(root, planted)} is a symbolic link: compare workspaces are made and removed only through real directories inside the workspace root (remove the link)`,
        },
      });
      expect(readdirSync(outside), planted).toEqual([]);
      compareWorkspaces(relay).stop();
    }
    // A file in its place is refused too.
    const root = temp("acp-compare-ws-");
    mkdirSync(path.join(root, ".acp-playground"));
    writeFileSync(path.join(root, COMPARE_WORKSPACES), "");
    expect(() => new CompareWorkspaces(() => []).make(root)).toThrow(/compare is not a directory$/);
  });

  it("removes no leftovers through a planted link", () => {
    const root = temp("acp-compare-ws-");
    const outside = temp("acp-compare-outside-");
    const old = path.join(outside, `${Date.now() - 10_000}-0123abcd`);
    mkdirSync(old);
    mkdirSync(path.join(root, ".acp-playground"));
    symlinkSync(outside, path.join(root, COMPARE_WORKSPACES));
    const workspaces = new CompareWorkspaces(() => [], { intervalMs: 60_000, unusedMs: 1_000, leftoverMs: 5_000 });
    cleanup.push(() => workspaces.stop());
    expect(() => workspaces.make(root)).toThrow(/is a symbolic link/);
    expect(existsSync(old)).toBe(true);
  });

  it("removes nothing through a link planted after the workspace was made", () => {
    const root = temp("acp-compare-ws-");
    const outside = temp("acp-compare-outside-");
    const workspaces = new CompareWorkspaces(() => [], { intervalMs: 60_000, unusedMs: 0, leftoverMs: 5_000 });
    cleanup.push(() => workspaces.stop());
    const { paths } = workspaces.make(root, 0);
    const stamp = path.basename(path.dirname(paths[0]));
    // The compare directory is swapped for a link to a folder holding the same name.
    const compare = path.join(root, COMPARE_WORKSPACES);
    renameSync(compare, `${compare}.moved`);
    mkdirSync(path.join(outside, stamp, "keep"), { recursive: true });
    symlinkSync(outside, compare);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    cleanup.push(() => warn.mockRestore());
    expect(workspaces.sweep(1)).toEqual([]);
    expect(existsSync(path.join(outside, stamp, "keep"))).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/is a symbolic link/));
  });
});
