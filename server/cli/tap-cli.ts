/**
 * `acp-playground tap`: argument and environment handling. Kept apart from
 * server/cli/cli.ts so that the bin script can load only this (an editor waits on
 * the tap's start-up before its agent starts).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_MAX_LINE_BYTES } from "../../lib/protocol/ndjson";
import { ConfigError, DEFAULT_KILL_GRACE_MS, intFrom } from "../config-env";
import { runTap } from "../tap/tap";
import { DiscoveryError, findRelay, type RelayTarget } from "../tap/tap-discovery";
import { dataDirFor } from "../runtime";
import { commandUsage } from "./cli-usage";
import { argumentError } from "./cli-options";

/** Returns the exit code: the agent's, or 2 for bad arguments or configuration. */
export async function tapMain(argv: string[]): Promise<number> {
  const fail = (message: string) => {
    process.stderr.write(`acp-playground tap: ${message}\n${commandUsage("tap")}\n`);
    return 2;
  };
  const dash = argv.indexOf("--");
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let values: { profile?: string | boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: own,
      options: { profile: { type: "string" } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    return fail(argumentError(err));
  }
  if (positionals.length > 0) return fail("put the agent's command after --");
  if ((values.profile === undefined) === (command.length === 0))
    return fail("needs either --profile NAME or -- COMMAND ARGS...");
  const cwd = process.cwd();
  // `-- COMMAND` needs no config file: its loader (zod, execa) is not loaded, so the agent starts sooner.
  let limits: { maxLineBytes: number; killGraceMs: number };
  let launch = { profile: path.basename(command[0] ?? "agent"), command: command[0]!, args: command.slice(1), env: {} };
  try {
    limits = {
      maxLineBytes: intFrom(process.env, "ACP_PLAYGROUND_MAX_LINE_BYTES", DEFAULT_MAX_LINE_BYTES, 1024),
      killGraceMs: intFrom(process.env, "ACP_PLAYGROUND_KILL_GRACE_MS", DEFAULT_KILL_GRACE_MS),
    };
    if (typeof values.profile === "string") {
      const [{ loadConfig }, { Profiles }] = await Promise.all([import("../config"), import("../agents/profiles")]);
      const config = loadConfig(process.env, cwd);
      const resolved = await new Profiles(config).resolve(values.profile);
      if (!resolved.ok) return fail(resolved.error.message);
      launch = resolved.value;
    }
  } catch (err) {
    if (err instanceof ConfigError) return fail(`configuration error: ${err.message}`);
    throw err;
  }
  const bufferBytes = Number(process.env.ACP_PLAYGROUND_TAP_BUFFER_BYTES || 8 * 1024 * 1024);
  if (!Number.isInteger(bufferBytes) || bufferBytes < 0)
    return fail("ACP_PLAYGROUND_TAP_BUFFER_BYTES must be a whole number of bytes");
  const dataDir = dataDirFor(process.env, cwd);
  let relay: RelayTarget | undefined;
  try {
    relay = findRelay(process.env, dataDir);
  } catch (err) {
    if (!(err instanceof DiscoveryError)) throw err;
    // The editor's session goes on without the relay: the tap records on its own.
    process.stderr.write(`acp-playground tap: ${err.message}\n`);
  }
  return runTap({
    ...launch,
    cwd,
    relay,
    dataDir,
    bufferBytes,
    ...limits,
    flushTimeoutMs: 3_000,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  });
}
