import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import { io as connect } from "socket.io-client";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentHost } from "../agents/agent-host";
import type { LiveCluster } from "./live-cluster";
import { MAX_WATCH_LINKS_PER_PERSON, WatchLinks } from "./watch-links";

describe("watch links on a team server", () => {
  // Not attached to an HTTP server: nothing listens, nothing to close.
  const io = new Server();
  // Alice's running session: a host with what making a link reads.
  const alice = {
    owner: "alice",
    running: true,
    secrets: [],
    agentInfo: undefined,
    watch: () => () => {},
  } as unknown as AgentHost;
  const links = new WatchLinks(io, (clientId) => (clientId === "alice-tab" ? alice : undefined));

  it("links a person's own session, and the operator's token links any", () => {
    for (const by of ["alice", undefined]) {
      const made = links.create("alice-tab", by);
      expect(made).toMatchObject({ ok: true });
      if (made.ok) expect(links.end(made.token)).toBe(true);
    }
  });

  it("answers another person's session as absent, as an unknown one", () => {
    const bob = links.create("alice-tab", "bob");
    expect(bob).toEqual(links.create("no-such-tab", "bob"));
    expect(bob).toMatchObject({ ok: false, status: 404 });
  });
});

describe("a watcher of another instance's link", () => {
  it("is told its stream is paused when Redis went away after it was let in, and attached once it is back", async () => {
    const http = createServer();
    const io = new Server(http);
    let up = false;
    const changes: Array<(up: boolean) => void> = [];
    const cluster: LiveCluster = {
      get up() {
        return up;
      },
      onChange: (listener) => void changes.push(listener),
      links: { add: async () => {}, delete: async () => {}, listed: async () => true },
      close: async () => {},
    };
    const links = new WatchLinks(io, () => undefined);
    links.useCluster(cluster);
    const token = "w".repeat(32);
    io.on("connection", (socket) => links.connection(socket, token, 0));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const client = connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ["websocket"] });
    try {
      const said: string[] = [];
      client.onAny((event: string) => said.push(event));
      await new Promise<void>((resolve) => client.on("watch:paused", () => resolve()));
      up = true;
      for (const listener of changes) listener(true);
      await new Promise<void>((resolve) => client.on("watch:resumed", () => resolve()));
      expect(said.slice(0, 2)).toEqual(["watch:paused", "watch:resumed"]);
    } finally {
      client.close();
      links.close();
      await io.close();
    }
  });
});

describe("watch links per person", () => {
  const io = new Server();
  const host = (owner: string) =>
    ({ owner, running: true, secrets: [], agentInfo: undefined, watch: () => () => {} }) as unknown as AgentHost;
  const hosts = new Map([
    ["alice-tab", host("alice")],
    ["bob-tab", host("bob")],
  ]);
  const links = new WatchLinks(io, (clientId) => hosts.get(clientId));
  afterAll(() => links.close());

  it("are capped for each person, so one cannot use up the relay's links, and ending one frees its slot", () => {
    const made: string[] = [];
    for (let i = 0; i < MAX_WATCH_LINKS_PER_PERSON; i++) {
      const link = links.create("alice-tab", "alice");
      if (!link.ok) throw new Error(`link ${i + 1} refused: ${link.error.message}`);
      made.push(link.token);
    }
    const refused = links.create("alice-tab", "alice");
    expect(refused).toMatchObject({ ok: false, status: 429, error: { code: "too_many" } });
    if (!refused.ok) {
      // How many she has, and how to end one.
      expect(refused.error.message).toContain(`${MAX_WATCH_LINKS_PER_PERSON} watch links`);
      expect(refused.error.message).toContain("DELETE /api/watch/");
    }
    // Another person, and the operator (the relay's own token), still make theirs.
    expect(links.create("bob-tab", "bob")).toMatchObject({ ok: true });
    expect(links.create("alice-tab", undefined)).toMatchObject({ ok: true });
    expect(links.endAs(made[0]!, "alice")).toBe(true);
    expect(links.create("alice-tab", "alice")).toMatchObject({ ok: true });
  });

  it("counts the operator's links as one person's", () => {
    const fresh = new WatchLinks(io, (clientId) => hosts.get(clientId));
    try {
      for (let i = 0; i < MAX_WATCH_LINKS_PER_PERSON; i++)
        expect(fresh.create("alice-tab", undefined)).toMatchObject({ ok: true });
      expect(fresh.create("bob-tab", undefined)).toMatchObject({ ok: false, status: 429 });
      expect(fresh.create("bob-tab", "bob")).toMatchObject({ ok: true });
    } finally {
      fresh.close();
    }
  });
});
