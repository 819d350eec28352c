/**
 * The app-server view of what Codex 0.171 adds to a thread's history and approvals, over in-memory
 * frames shaped as the pinned Codex sends them (test/agents/codex-history.test.ts checks the same
 * against the real binary): thread/turns/list and thread/items/list pages, and
 * item/permissions/requestApproval with its grant.
 */
import { describe, expect, it } from "vitest";
import type { Frame } from "../../protocol/frame";
import { approvalOutcome, permissionProfile, type PermissionsItem } from "./items";
import { reduceAppServerFrames, type AppServerViewState } from "./view";

let seq = 0;
const frame = (dir: Frame["dir"], message: Record<string, unknown>, extra: Partial<Frame> = {}): Frame => {
  const kind = "method" in message ? ("id" in message ? "request" : "notification") : "response";
  return {
    seq: ++seq,
    ts: 1000 + seq,
    dir,
    raw: JSON.stringify(message),
    kind,
    method: message.method as string | undefined,
    id: message.id as number | undefined,
    message,
    ...extra,
  };
};
const note = (method: string, params: Record<string, unknown>) => frame("from-agent", { method, params });
/** A client request and the server's answer to it. */
let nextId = 100;
const ask = (method: string, params: Record<string, unknown>, result: unknown): Frame[] => {
  const id = nextId++;
  const req = frame("to-agent", { id, method, params });
  return [req, frame("from-agent", { id, result }, { requestSeq: req.seq, method })];
};

const user = (id: string, text: string) => ({ type: "userMessage", id, content: [{ type: "text", text }] });
const agent = (id: string, text: string) => ({ type: "agentMessage", id, text });
const turn = (id: string, items: unknown[], status = "completed") => ({ id, items, status, durationMs: 5 });
/** A live turn the view saw happen. */
const live = (id: string, text: string): Frame[] => [
  note("turn/started", { threadId: "t1", turn: { id, status: "inProgress", items: [] } }),
  note("item/completed", { threadId: "t1", turnId: id, item: agent(`m-${id}`, text) }),
  note("turn/completed", { threadId: "t1", turn: { id, status: "completed", items: [] } }),
];

const turnsOf = (s: AppServerViewState) => s.threads.t1!.turns.map((t) => t.id);

describe("thread/turns/list pages", () => {
  it("lists a thread's turns oldest first though the page comes newest first (the default), with their items", () => {
    const s = reduceAppServerFrames(
      ask(
        "thread/turns/list",
        { threadId: "t1" },
        {
          data: [turn("u2", [user("a2", "second"), agent("b2", "two")]), turn("u1", [user("a1", "first")], "failed")],
          nextCursor: "c1",
        },
      ),
    );
    expect(turnsOf(s)).toEqual(["u1", "u2"]);
    expect(s.threads.t1!.turns[0]).toMatchObject({ status: "failed", durationMs: 5 });
    expect(s.threads.t1!.turns[1]!.items).toMatchObject([
      { type: "userMessage", text: "second", completed: true },
      { type: "agentMessage", text: "two", completed: true },
    ]);
    expect(s.open).toEqual({});
  });

  it("puts an older page (the next cursor's) before the turns already shown, and an ascending one after", () => {
    const first = reduceAppServerFrames([...live("u3", "three")]);
    const older = reduceAppServerFrames(
      ask("thread/turns/list", { threadId: "t1", cursor: "c1" }, { data: [turn("u2", []), turn("u1", [])] }),
      first,
    );
    expect(turnsOf(older)).toEqual(["u1", "u2", "u3"]);
    const newer = reduceAppServerFrames(
      ask("thread/turns/list", { threadId: "t1", sortDirection: "asc" }, { data: [turn("u4", []), turn("u5", [])] }),
      older,
    );
    expect(turnsOf(newer)).toEqual(["u1", "u2", "u3", "u4", "u5"]);
  });

  it("places new turns among those it shares with the view (a page is a stretch of the history), and merges a shared turn's items without repeating them", () => {
    const s0 = reduceAppServerFrames([...live("u2", "two"), ...live("u4", "four")]);
    const s = reduceAppServerFrames(
      ask(
        "thread/turns/list",
        { threadId: "t1", itemsView: "full" },
        {
          data: [
            turn("u5", []),
            turn("u4", [user("q4", "4?"), agent("m-u4", "four")]),
            turn("u3", []),
            turn("u2", []),
            turn("u1", []),
          ],
        },
      ),
      s0,
    );
    expect(turnsOf(s)).toEqual(["u1", "u2", "u3", "u4", "u5"]);
    const u4 = s.threads.t1!.turns.find((t) => t.id === "u4")!;
    expect(u4.items.map((it) => it.id)).toEqual(["m-u4", "q4"]);
    expect(u4.items.filter((it) => it.id === "m-u4")).toHaveLength(1);
  });

  it("changes nothing but the open request on an error, or a page of turns the view already has", () => {
    const s0 = reduceAppServerFrames(live("u1", "one"));
    const req = frame("to-agent", { id: 1, method: "thread/turns/list", params: { threadId: "t1" } });
    const failed = reduceAppServerFrames(
      [req, frame("from-agent", { id: 1, error: { code: -32600, message: "no" } }, { requestSeq: req.seq })],
      s0,
    );
    expect(failed.threads).toBe(s0.threads);
    expect(failed.open).toEqual({});
    const same = reduceAppServerFrames(ask("thread/turns/list", { threadId: "t1" }, { data: [turn("u1", [])] }), s0);
    expect(turnsOf(same)).toEqual(["u1"]);
  });
});

describe("thread/items/list pages", () => {
  it("folds each item into the turn it names, in the page's order; a turn known only from items has no status", () => {
    const s0 = reduceAppServerFrames(live("u2", "two"));
    const s = reduceAppServerFrames(
      ask(
        "thread/items/list",
        { threadId: "t1" },
        {
          data: [
            { turnId: "u1", item: user("q1", "first") },
            { turnId: "u1", item: agent("m1", "one") },
            { turnId: "u2", item: user("q2", "second") },
            { turnId: "u2", item: agent("m-u2", "two, final") },
            { item: agent("x", "no turn: skipped") },
          ],
        },
      ),
      s0,
    );
    expect(turnsOf(s)).toEqual(["u1", "u2"]);
    const [u1, u2] = s.threads.t1!.turns;
    expect(u1).toMatchObject({ status: "unknown" });
    expect(u1!.items.map((it) => it.id)).toEqual(["q1", "m1"]);
    expect(u2).toMatchObject({ status: "completed" });
    expect(u2!.items).toMatchObject([{ id: "m-u2", text: "two, final" }, { id: "q2" }]);
  });

  it("reads a descending page newest first", () => {
    const s = reduceAppServerFrames(
      ask(
        "thread/items/list",
        { threadId: "t1", sortDirection: "desc" },
        {
          data: [
            { turnId: "u2", item: agent("m2", "two") },
            { turnId: "u1", item: agent("m1b", "one b") },
            { turnId: "u1", item: agent("m1a", "one a") },
          ],
        },
      ),
    );
    expect(turnsOf(s)).toEqual(["u1", "u2"]);
    expect(s.threads.t1!.turns[0]!.items.map((it) => it.id)).toEqual(["m1a", "m1b"]);
  });
});

describe("item/permissions/requestApproval", () => {
  // As Codex 0.171 asks it for the model's request_permissions call: paths twice (write, entries).
  const permissions = {
    network: { enabled: true },
    fileSystem: {
      read: null,
      write: ["/w/out"],
      entries: [{ path: { type: "path", path: "/w/out" }, access: "write" }],
    },
  };
  const params = { threadId: "t1", turnId: "u1", itemId: "call_1", cwd: "/w", reason: "For the network.", permissions };
  const request = () => frame("from-agent", { id: 0, method: "item/permissions/requestApproval", params });

  it("is the item of its turn: what it asks, why, and the request pending", () => {
    const req = request();
    const s = reduceAppServerFrames([req]);
    const item = s.threads.t1!.turns[0]!.items[0] as PermissionsItem;
    expect(item).toMatchObject({
      type: "permissions",
      id: "call_1",
      reason: "For the network.",
      cwd: "/w",
      network: true,
      read: [],
      write: ["/w/out"],
    });
    expect(item.approval).toMatchObject({ requestSeq: req.seq, requestId: 0 });
    expect(Object.keys(s.pending)).toEqual([String(req.seq)]);
    expect(approvalOutcome(item.approval!)).toBe("not answered");
  });

  it("shows the grant once answered, and granting nothing as declined", () => {
    for (const [result, outcome] of [
      [{ permissions, scope: "session" }, "granted for the session: network, /w/out"],
      [{ permissions: { network: { enabled: true } }, scope: "turn" }, "granted for the turn: network"],
      [{ permissions: {}, scope: "turn" }, "declined (nothing granted)"],
    ] as const) {
      const req = request();
      const s = reduceAppServerFrames([req, frame("to-agent", { id: 0, result }, { requestSeq: req.seq })]);
      const item = s.threads.t1!.turns[0]!.items[0]!;
      expect(s.pending).toEqual({});
      expect(approvalOutcome(item.approval!)).toBe(outcome);
    }
  });

  it("reads a profile's paths from either list, once each, and ignores what is not a path", () => {
    expect(
      permissionProfile({
        fileSystem: {
          read: ["/a", 3],
          entries: [
            { path: { path: "/a" }, access: "read" },
            { path: { path: "/b" }, access: "read" },
            { path: "/c", access: "write" },
            { access: "write" },
          ],
        },
        network: { enabled: "yes" },
      }),
    ).toEqual({ network: false, read: ["/a", "/b"], write: ["/c"] });
    expect(permissionProfile(null)).toEqual({ network: false, read: [], write: [] });
  });
});

describe("what the view leaves out", () => {
  it("thread/search/partial (a search's provisional rows) opens no thread", () => {
    const s0 = reduceAppServerFrames(live("u1", "one"));
    const s = reduceAppServerFrames(
      [note("thread/search/partial", { requestId: 3, data: [{ snippet: "x", thread: { id: "t9", turns: [] } }] })],
      s0,
    );
    expect(s).toBe(s0);
  });
});
