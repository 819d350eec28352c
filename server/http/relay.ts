/**
 * Socket.IO wiring: authenticates each connection, binds it to its browser
 * session, and turns contract events into calls on that session.
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from "node:http";
import { Server } from "socket.io";
import type { Socket as EngineSocket } from "engine.io";
import { parseTranscript } from "../../lib/contracts/transcript";
import {
  clientEventSchemas as schemas,
  frameLine,
  invalidPayload,
  type Ack,
  type ClientAck,
  type ClientEvent,
  type ClientPayload,
  type ClientToServerEvents,
  type RelayInfo,
  type ServerToClientEvents,
} from "../../lib/contracts/wire";
import { BrowserSession, type RelaySocket } from "./browser-session";
import type { ServerConfig } from "../config";
import { AgentHost } from "../agents/agent-host";
import { AgentPool } from "../agents/agent-pool";
import { Profiles } from "../agents/profiles";
import { probeStoreBeside } from "../transcripts/probe-store";
import { probeAgent, rerunTranscript } from "../agents/session-tasks";
import { liveExportFromEnv } from "../otel/live-export";
import { TranscriptStore } from "../transcripts/transcript-store";
import { LibraryIndex } from "../transcripts/library-index";
import { PgMirror } from "../stores/pg-mirror";
import { PgStore } from "../stores/pg-store";
import { SharedTranscripts } from "../transcripts/shared-transcripts";
import { refuseRequest } from "./security";
import { Identities } from "./identities";
import { createTapHub, type TapHub } from "../tap/tap-session";
import { socketEvents } from "../wire/socket-events";
import { WatchLinks } from "./watch-links";
import { joinCluster, type LiveCluster } from "./live-cluster";
import { VERSION } from "../version";
import { checkFrameDirectories } from "../workspace";
import { protocolOf } from "../../lib/protocol/protocols";

const CLIENT_ID = /^[\w-]{8,64}$/;
const CONNECT_TIMEOUT_MS = 5_000;
export interface Relay {
  io: Server<ClientToServerEvents, ServerToClientEvents>;
  sessions: Map<string, BrowserSession>;
  config: ServerConfig;
  profiles: Profiles;
  transcripts: TranscriptStore;
  /** The library's search index (undefined when turned off). */
  library: LibraryIndex | undefined;
  /** The team library on PostgreSQL (`serve --database`): the library's routes answer from it. */
  team: PgStore | undefined;
  /** What copies the local store into the team library, when there is one. */
  mirror: PgMirror | undefined;
  /** Who a token is: the relay's own, or a person's named one (revoked by editing the config file). */
  identities: Identities;
  pool: AgentPool;
  /** Tapped conversations (server/tap/tap-session.ts). */
  taps: TapHub;
  /** Watch links to running sessions (server/http/watch-links.ts). */
  watch: WatchLinks;
  /** `serve --redis`: resolves once the instances share live events (rejects, saying why, when Redis is unreachable). */
  clustered: Promise<LiveCluster | undefined>;
  /** Resolves once start-up work (the gemini `--acp` probe) is done. */
  primed: Promise<void>;
  /** Transcripts read whole wherever they were recorded (the team library's first, when there is one). */
  shared: SharedTranscripts;
  /** `profile`: also describe this one (a chosen `replay:<id>` the bounded list leaves out). */
  info(profile?: string): Promise<RelayInfo>;
  /** Stops every agent and closes the socket server. */
  close(): Promise<void>;
}

export function createRelay(httpServer: HttpServer, config: ServerConfig): Relay {
  const sessions = new Map<string, BrowserSession>();
  const identities = new Identities(config.token, config.tokens, config.configFile);
  const transcripts = new TranscriptStore(config.dataDir);
  // With a database the local store is copied there and searched there: no SQLite index.
  const team = config.database ? PgStore.connect(config.database, { leaseMs: config.databaseLeaseMs }) : undefined;
  const mirror = team && new PgMirror(transcripts, team, config.databaseBacklogBytes, probeStoreBeside(transcripts));
  const library = team || config.searchIndex === false ? undefined : new LibraryIndex(transcripts.dir);
  transcripts.index = mirror ?? library;
  // serve --otlp: every recording also goes out as OpenTelemetry traces (docs/otel.md).
  transcripts.recordings = liveExportFromEnv(process.env, config, httpServer);
  // Export, replay and re-run read a transcript recorded on another instance from the database.
  const shared = new SharedTranscripts(transcripts, team);
  const profiles = new Profiles(config, transcripts, shared);
  const primed = profiles.prime();
  const pool = new AgentPool(config, profiles, transcripts);
  pool.fill();
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
    serveClient: false,
    // A frame may be as long as an agent line, plus the envelope.
    maxHttpBufferSize: config.maxLineBytes + 64 * 1024,
  });

  // A connection that has not authenticated within seconds is dropped, whatever it was still to
  // be sent (an <img> tag can open one and never poll again).
  const authenticated = new WeakSet<object>();
  /** A named token's owner per connected socket (by socket id; gone when it disconnects). */
  const owners = new Map<string, string>();
  io.engine.on("connection", (conn: EngineSocket) => {
    const timer = setTimeout(() => {
      if (!authenticated.has(conn)) conn.close(true);
    }, CONNECT_TIMEOUT_MS);
    conn.once("close", () => clearTimeout(timer));
  });

  // Engine.IO's allowRequest sees only the handshake; this sees every request, polls and upgrades
  // that carry an existing sid included.
  io.engine.use((req: IncomingMessage, res: ServerResponse, next: (err?: Error) => void) => {
    const refused = refuseRequest(req, config);
    if (!refused) return next();
    // On an upgrade, `res` stands for the raw socket: end() destroys it.
    res.writeHead(403, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "forbidden", message: refused } }));
  });

  const watch = new WatchLinks(io, (clientId) => sessions.get(clientId)?.host);
  const clustered = config.redis
    ? joinCluster(io, config.redis).then((cluster) => {
        watch.useCluster(cluster);
        return cluster;
      })
    : Promise.resolve(undefined);
  // Whoever starts the relay awaits it (serve); a failure is never left unhandled meanwhile.
  clustered.catch(() => {});

  io.use((socket, next) => {
    const auth = socket.handshake.auth as Record<string, unknown>;
    // A watch link opens its one session read-only, whatever else the handshake carries.
    if (auth?.watchLink !== undefined) {
      const token = typeof auth.watchLink === "string" ? auth.watchLink : "";
      void watch.admit(token).then((refused) => {
        if (!refused) {
          authenticated.add(socket.conn);
          return next();
        }
        next(new Error(refused));
        setImmediate(() => socket.conn.close());
      });
      return;
    }
    const who = identities.who(auth?.token);
    if (who) {
      authenticated.add(socket.conn);
      if (who.owner) owners.set(socket.id, who.owner);
      return next();
    }
    next(new Error("unauthorized"));
    // A refused connection is closed once the refusal has reached the client.
    setImmediate(() => socket.conn.close());
  });

  // A revoked person's open sockets are closed (their agents then stop after the grace period) and
  // their watch links ended at once.
  identities.onRevoked((names) => {
    watch.endMadeBy(names);
    for (const socket of io.sockets.sockets.values()) {
      const owner = owners.get(socket.id);
      if (owner && names.has(owner)) socket.disconnect(true);
    }
  });

  const info = async (profile?: string): Promise<RelayInfo> => ({
    version: VERSION,
    profiles: [...profiles.list(), ...(await profiles.replays(profile))],
    defaultProfile: config.defaultProfile,
    workspaceRoots: config.workspaceRoots,
    maxLineBytes: config.maxLineBytes,
    graceMs: config.graceMs,
  });

  const taps = createTapHub(
    io,
    config,
    transcripts,
    info,
    (conn) => authenticated.add(conn),
    identities,
    (socket) => {
      const owner = owners.get(socket.id);
      return owner === undefined ? {} : { owner };
    },
  );

  const disposer = (s: BrowserSession) => {
    if (sessions.get(s.clientId) === s) sessions.delete(s.clientId);
  };

  io.on("connection", (socket: RelaySocket) => {
    const auth = socket.handshake.auth as Record<string, unknown>;
    const lastSeq = typeof auth.lastSeq === "number" && auth.lastSeq >= 0 ? auth.lastSeq : 0;
    if (typeof auth.watchLink === "string") return watch.connection(socket, auth.watchLink, lastSeq);
    let clientId = typeof auth.clientId === "string" && CLIENT_ID.test(auth.clientId) ? auth.clientId : socket.id;
    socket.once("disconnect", () => owners.delete(socket.id));
    if (taps.connection(socket, clientId, lastSeq)) return;
    let session = sessions.get(clientId);
    // A duplicated tab carries the same clientId: it gets a session of its own. So does another
    // person's socket (a named token's, or the relay's own) that names it: a clientId is no secret.
    if (session?.attached || (session && session.host.owner !== owners.get(socket.id))) {
      clientId = `${clientId.slice(0, 40)}-${socket.id}`.replace(/[^\w-]/g, "").slice(0, 64);
      session = undefined;
    }
    const reattached = session !== undefined;
    if (!session) {
      session = new BrowserSession(clientId, new AgentHost(config, profiles, transcripts), config.graceMs, disposer);
      sessions.set(clientId, session);
    }
    const current = session;
    // What this tab records from now on is its person's (a named token's owner).
    const owner = owners.get(socket.id);
    current.host.owner = owner;
    socket.emit("relay:hello", { clientId });
    current.attach(socket, reattached ? lastSeq : 0);

    const events = socketEvents(socket);
    // The contract's own schema for each event, and its ack type checked.
    const on = <E extends ClientEvent>(
      event: E,
      handler: (payload: ClientPayload<E>) => Ack<ClientAck<E>> | Promise<Ack<ClientAck<E>>>,
    ) => events.on(event, schemas[event], handler as (payload: unknown) => Ack<object>);

    on("relay:info", async ({ profile }) => ({ ok: true, info: await info(profile) }));

    on("agent:start", ({ pooled, ...start }) => {
      const profile = start.profile ?? config.defaultProfile;
      const warm =
        pooled && !current.host.running && !start.cwd && !start.options && !start.env ? pool.take(profile) : undefined;
      if (!warm) return current.host.start(start);
      warm.owner = owner;
      const warmId = warm.agentInfo?.transcriptId;
      if (owner && warmId) transcripts.own(warmId, owner);
      current.useHost(warm, socket);
      return { ok: true, agent: warm.agentInfo! };
    });

    on("agent:send", ({ frame }) => {
      const line = frameLine(frame, config.maxLineBytes, protocolOf(current.host.agentInfo));
      if (!line.ok) return line;
      // A session's directories follow the spawn's rule (server/workspace.ts), whatever the agent's own cwd;
      // a `replay:<id>` agent works in no directory (its recording's paths are from another machine).
      const replay = current.host.agentInfo?.profile.startsWith("replay:") === true;
      const refused = replay ? undefined : checkFrameDirectories(line.value, config.workspaceRoots);
      return refused ? { ok: false, error: refused } : current.host.send(line.value);
    });

    on("agent:stop", async () => {
      await current.host.stop();
      return { ok: true };
    });

    on("transcript:rerun", async ({ id, recordedMcpServers, ...start }) => {
      const text = await shared.read(id);
      if (text === undefined) return invalidPayload(`no transcript ${id}`);
      return rerunTranscript(current.host, parseTranscript(text), start, {
        recordedMcpServers,
        workspaceRoots: config.workspaceRoots,
      });
    });

    on("policy:set", ({ policies }) => ({
      ok: true,
      policies: current.host.answerer.setPolicies(policies),
    }));

    on("agent:serve", ({ id }) => current.host.answerer.serve(id));

    on("agent:probe", ({ terminals, ...start }) =>
      probeAgent(current.host, start, {
        store: probeStoreBeside(transcripts),
        clientCapabilities: profiles.clientCapabilities(start.profile ?? config.defaultProfile),
        terminals,
      }),
    );

    events.refuseUnknown();

    socket.on("disconnect", () => current.detach(socket));
  });

  return {
    io,
    sessions,
    config,
    profiles,
    transcripts,
    library,
    team,
    mirror,
    shared,
    identities,
    pool,
    taps,
    watch,
    clustered,
    primed,
    info,
    async close() {
      watch.close();
      identities.close();
      taps.close();
      const cluster = await clustered.catch(() => undefined);
      await pool.close();
      await Promise.allSettled([...sessions.values()].map((s) => s.host.stop()));
      sessions.clear();
      transcripts.index = undefined;
      await library?.close();
      await transcripts.recordings?.close?.();
      await mirror?.close();
      await team?.close();
      await new Promise<void>((resolve) => void io.close(() => resolve()));
      await cluster?.close();
    },
  };
}
