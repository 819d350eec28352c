/**
 * What Codex 0.171 (pinned in test/agents) asks and lists beyond a turn's stream, offline against the
 * fake Responses API, folded by the thread view as the browser folds it: the model's
 * request_permissions call becomes `item/permissions/requestApproval`, answered by the client's card
 * or by the relay's policies; a resumed thread's history comes back in pages (thread/turns/list,
 * thread/items/list).
 */
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  foldAppServer,
  runAppServerHandshake,
  runAppServerTurn,
} from "../../lib/features/protocols/codex-app-server/handshake";
import { approvalChoices } from "../../lib/features/protocols/codex-app-server/policy";
import { approvalOutcome, type PermissionsItem } from "../../lib/folds/codex-app-server/items";
import { reduceAppServerFrames } from "../../lib/folds/codex-app-server/view";
import type { Frame } from "../../lib/protocol/frame";
import { TestClient } from "../relay-harness";
import { portOf, startCodexRig, type CodexRig } from "./codex-rig";

const MS = 120_000;
let rig: CodexRig;
const clients: TestClient[] = [];

beforeAll(async () => {
  // Codex offers the model request_permissions only with this feature on (under development in 0.171).
  rig = await startCodexRig("acp-codex-history-", ["request_permissions_tool"]);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(() => rig?.close());

async function connected(): Promise<{ c: TestClient; threadId: string; port: ReturnType<typeof portOf> }> {
  const c = new TestClient(rig.relay.url, { token: "test-token" });
  clients.push(c);
  await c.connected();
  await c.start({ profile: "codex", cwd: rig.workspace });
  const port = portOf(c);
  const end = await runAppServerHandshake({ port }, { cwd: rig.workspace });
  expect(end.progress, JSON.stringify(end.progress)).toMatchObject({ step: "ready" });
  return { c, threadId: end.progress.sessionId!, port };
}

const params = (f: Frame) => (f.message as { params: any }).params;
const PERMISSIONS = "item/permissions/requestApproval";

/** The model asks for the network and a folder outside the workspace, then says it is done. */
function scriptPermissionCall(): string {
  const out = path.join(rig.base, "out");
  rig.api.script(
    {
      text: ["Asking."],
      tools: [
        {
          name: "request_permissions",
          input: { permissions: { network: { enabled: true }, file_system: { write: [out] } }, reason: "To publish." },
        },
      ],
    },
    { text: ["Done."] },
  );
  return out;
}

/** What Codex told the model the call returned: the function_call_output of its last model request. */
function toolOutput(): string {
  const body = rig.api.requests.filter((r) => r.turn).at(-1)!.body as { input: Array<Record<string, unknown>> };
  const out = body.input.filter((i) => i.type === "function_call_output").at(-1);
  return typeof out?.output === "string" ? out.output : JSON.stringify(out?.output);
}

describe("item/permissions/requestApproval (Codex 0.171, request_permissions)", () => {
  it(
    "the card's 'Grant for session' answers it: the view shows what was asked and granted, and the model gets the grant",
    async () => {
      const { c, threadId, port } = await connected();
      const out = scriptPermissionCall();
      const turn = runAppServerTurn(port, threadId, "publish it", MS);
      const ask = await c.frame((f) => f.kind === "request" && f.method === PERMISSIONS, "permissions", MS);

      // While it waits, the view has the permissions item with its request pending.
      const waiting = reduceAppServerFrames(c.frames);
      const asked = waiting.threads[threadId]!.turns.at(-1)!.items.find((it) => it.type === "permissions");
      expect(asked).toMatchObject({ type: "permissions", network: true, write: [out], reason: "To publish." });
      expect(Object.keys(waiting.pending)).toEqual([String(ask.seq)]);

      const grant = approvalChoices(PERMISSIONS, params(ask)).find((ch) => ch.label === "Grant for session")!;
      await c.send({ id: ask.id, result: grant.result });
      expect(await turn).toMatchObject({ ok: true, status: "completed" });
      expect(c.frames.some((f) => f.method === "serverRequest/resolved" && params(f).requestId === ask.id)).toBe(true);
      expect(toolOutput()).toContain("session");
      expect(toolOutput()).toContain(out);

      const view = reduceAppServerFrames(c.frames);
      const item = view.threads[threadId]!.turns.at(-1)!.items.find(
        (it) => it.type === "permissions",
      ) as PermissionsItem;
      expect(view.pending).toEqual({});
      expect(approvalOutcome(item.approval!)).toBe(`granted for the session: network, ${out}`);
    },
    MS,
  );

  for (const [policy, granted] of [
    ["auto", true],
    ["deny", false],
  ] as const) {
    it(
      `${policy} policy: the relay ${granted ? "grants what was asked, for the turn" : "grants nothing"}`,
      async () => {
        const { c, threadId, port } = await connected();
        const ack = await c.emit("policy:set", { policies: { [PERMISSIONS]: policy } });
        expect(ack).toMatchObject({ ok: true, policies: { [PERMISSIONS]: policy } });
        const out = scriptPermissionCall();
        expect(await runAppServerTurn(port, threadId, "publish it", MS)).toMatchObject({
          ok: true,
          status: "completed",
        });
        const ask = c.frames.find((f) => f.kind === "request" && f.method === PERMISSIONS)!;
        const answer = c.frames.find((f) => f.dir === "to-agent" && f.kind === "response" && f.requestSeq === ask.seq)!;
        const item = reduceAppServerFrames(c.frames)
          .threads[threadId]!.turns.at(-1)!
          .items.find((it) => it.type === "permissions")!;
        if (granted) {
          expect(JSON.parse(answer.raw).result).toEqual({ permissions: params(ask).permissions, scope: "turn" });
          expect(toolOutput()).toContain(out);
          expect(approvalOutcome(item.approval!)).toBe(`granted for the turn: network, ${out}`);
        } else {
          expect(JSON.parse(answer.raw).result).toEqual({ permissions: {}, scope: "turn" });
          expect(toolOutput()).not.toContain(out);
          expect(approvalOutcome(item.approval!)).toBe("declined (nothing granted)");
        }
      },
      MS,
    );
  }
});

describe("a resumed thread's history in pages (thread/turns/list, thread/items/list)", () => {
  it(
    "lists the turns a page at a time, newest first, and the view shows them oldest first with their items",
    async () => {
      const first = await connected();
      for (const [prompt, reply] of [
        ["one", "first reply"],
        ["two", "second reply"],
        ["three", "third reply"],
      ] as const) {
        rig.api.script({ text: [reply] });
        expect(await runAppServerTurn(first.port, first.threadId, prompt, MS)).toMatchObject({ ok: true });
      }
      const threadId = first.threadId;
      // The first Codex gone, whole, before the second resumes: while it runs, the thread is still its own
      // (a CI run's resume was refused when only the socket was closed and the process still ran).
      expect(await first.c.emit("agent:stop", {})).toMatchObject({ ok: true });
      first.c.close();

      // A new connection (a new Codex process) resumes it and pages its history back.
      const c = new TestClient(rig.relay.url, { token: "test-token" });
      clients.push(c);
      await c.connected();
      await c.start({ profile: "codex", cwd: rig.workspace });
      const port = portOf(c);
      await port.request("initialize", { clientInfo: { name: "test", version: "1" } });
      await port.notify("initialized");
      // excludeTurns: the thread without its turns, for a client that pages them (Codex's advice).
      const resumed = await port.request("thread/resume", { threadId, excludeTurns: true });
      expect(resumed).toMatchObject({ kind: "result", result: { thread: { id: threadId, turns: [] } } });
      expect(reduceAppServerFrames(c.frames).threads[threadId]!.turns).toEqual([]);

      const page1 = await port.request("thread/turns/list", { threadId, limit: 2, itemsView: "full" });
      const cursor = (page1 as { result: { nextCursor: string | null } }).result.nextCursor;
      expect(typeof cursor).toBe("string");
      // What the compose form of the next page suggests.
      expect(foldAppServer(c.frames).cursors["thread/turns/list"]).toBe(cursor);
      const texts = (s = reduceAppServerFrames(c.frames)) =>
        s.threads[threadId]!.turns.map((t) =>
          t.items.map((it) => (it.type === "userMessage" || it.type === "agentMessage" ? it.text : it.type)),
        );
      expect(texts()).toEqual([
        ["two", "second reply"],
        ["three", "third reply"],
      ]);

      const page2 = await port.request("thread/turns/list", { threadId, limit: 2, itemsView: "full", cursor });
      expect((page2 as { result: { nextCursor: unknown } }).result.nextCursor).toBeNull();
      expect(foldAppServer(c.frames).cursors).not.toHaveProperty("thread/turns/list");
      expect(texts()).toEqual([
        ["one", "first reply"],
        ["two", "second reply"],
        ["three", "third reply"],
      ]);
      expect(reduceAppServerFrames(c.frames).threads[threadId]!.turns.every((t) => t.status === "completed")).toBe(
        true,
      );

      // The items of the whole thread, ascending: folded into the same turns, nothing repeated.
      const before = reduceAppServerFrames(c.frames);
      expect(await port.request("thread/items/list", { threadId })).toMatchObject({ kind: "result" });
      expect(texts()).toEqual(texts(before));
    },
    3 * MS,
  );
});
