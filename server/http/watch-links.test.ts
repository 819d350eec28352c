import { Server } from "socket.io";
import { describe, expect, it } from "vitest";
import type { AgentHost } from "../agents/agent-host";
import { WatchLinks } from "./watch-links";

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
