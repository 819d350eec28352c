/**
 * Serving: one Node process with the Next.js app and the Socket.IO relay on one port, bound to
 * 127.0.0.1 unless HOST says otherwise. `acp-playground serve` and `npm start` (server/index.ts).
 */
import next from "next";
import { createRequire } from "node:module";
import { createAppServer, exitOnSignals } from "../http/app-server";
import { ConfigError, loadConfig, type CommandLineAgent } from "../config";
import { openBrowser, shouldOpenBrowser } from "./open-browser";
import { DiscoveryError, writeRelayDiscovery } from "../tap/tap-discovery";
import { PACKAGE_ROOT } from "../runtime";

/**
 * `agents`: profiles named on the command line for this run (the first is the default);
 * `installed`: started by the `acp-playground` command rather than `npm start`.
 */
export async function serve(agents: CommandLineAgent[] = [], installed = false): Promise<void> {
  const config = loadConfig(process.env, process.cwd(), agents);
  const dev = process.env.NODE_ENV === "development";
  const app = next({ dev, dir: PACKAGE_ROOT, hostname: config.host, port: config.port });
  await loadNextConfigQuietly(dev);
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createAppServer(config, (req, res) => handle(req, res), installed ? "installed" : "npm-start");
  if (server.relay.team) {
    try {
      await server.relay.team.ready;
    } catch (err) {
      await server.close();
      throw new ConfigError(`cannot use the database (--database): ${(err as Error).message}`);
    }
  }

  try {
    await server.relay.clustered;
  } catch (err) {
    await server.close();
    throw new ConfigError(`cannot share live events (--redis): ${(err as Error).message}`);
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.http.once("error", reject);
      server.http.listen(config.port, config.host, resolve);
    });
  } catch (err) {
    // The relay's warm pool is already starting agents: stop them before saying why.
    await server.close();
    throw new ConfigError(listenError(err as NodeJS.ErrnoException, config.host, config.port, installed));
  }
  const address = server.http.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const shownHost = config.host.includes(":") ? `[${config.host}]` : config.host;
  // Where `acp-playground tap` finds this relay and its token (0600), never on a command line.
  const tapHost = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : shownHost;
  try {
    writeRelayDiscovery(config.dataDir, `http://${tapHost}:${port}`, config.token);
  } catch (err) {
    if (!(err instanceof DiscoveryError)) throw err;
    // The relay works without them; a tap then needs ACP_PLAYGROUND_URL and ACP_PLAYGROUND_TOKEN.
    console.warn(
      `Not writing the tap's discovery files: ${err.message}. ` +
        "`acp-playground tap` will not find this relay unless ACP_PLAYGROUND_URL and ACP_PLAYGROUND_TOKEN are set.",
    );
  }
  const url = `http://${tapHost}:${port}/?token=${config.token}`;
  console.log(`ACP Playground is running. Open:\n\n  http://${shownHost}:${port}/?token=${config.token}\n`);
  if (
    shouldOpenBrowser({ env: process.env, argv: process.argv, platform: process.platform, tty: !!process.stdout.isTTY })
  ) {
    console.log("Opening it in your browser (--no-open or ACP_PLAYGROUND_OPEN=0 turns this off).");
    openBrowser(url);
  }

  exitOnSignals(server);
}

/**
 * Why the port cannot be had, and what to do (a port in use is the usual case: a second start).
 * `installed`: the command takes --port; `npm start` reads only PORT.
 */
function listenError(err: NodeJS.ErrnoException, host: string, port: number, installed: boolean): string {
  const other = `choose another port with ${installed ? "--port N" : "PORT=N npm start"} (0 picks a free one)`;
  if (err.code === "EADDRINUSE") return `port ${port} on ${host} is in use: stop what uses it, or ${other}`;
  if (err.code === "EACCES") return `port ${port} on ${host} needs privileges this user lacks: ${other}`;
  if (err.code === "EADDRNOTAVAIL") return `${host} is not an address of this machine: set HOST to one that is`;
  return `cannot listen on ${host}:${port}: ${err.message}`;
}

/**
 * Next's router loads next.config.mjs with its timing printed ("✓ Running next.config.mjs took
 * 270ms", next/dist/server/lib/router-server.js: `silent: false`, with no option to turn it off).
 * Loaded here first, silently, with the same phase and folder, its load is a cache hit: no line.
 */
async function loadNextConfigQuietly(dev: boolean): Promise<void> {
  const require = createRequire(import.meta.url);
  const { default: loadConfig } = require("next/dist/server/config") as typeof import("next/dist/server/config");
  const phases = require("next/constants") as typeof import("next/constants");
  await loadConfig(dev ? phases.PHASE_DEVELOPMENT_SERVER : phases.PHASE_PRODUCTION_SERVER, PACKAGE_ROOT, {
    silent: true,
  });
}
