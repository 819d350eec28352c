/**
 * The CLI's usage texts: their own module, so `--help` answers without loading the rest
 * (bin/acp-playground.mjs). One entry per command: its synopsis and one-line summary make the
 * overview (`acp-playground --help`); `acp-playground COMMAND --help` adds what each option
 * does and what it does when not given.
 */
import path from "node:path";
import { PACKAGE_ROOT } from "../runtime";

interface CommandHelp {
  synopsis: string;
  summary: string;
  /** Every option with its default, and the exit codes when they differ from the overview's. */
  details: string;
}

/** The docs the help names ship in the package ("files" in package.json has docs/*.md). */
const DOCS = path.join(PACKAGE_ROOT, "docs");

/** What a FILE read by replay, export, validate and publish may be (server/cli/transcript-source.ts). */
const FILE_IS = `  FILE                  a transcript file (.jsonl), the id of one in the local library, or its link on a
                        team server (any relay): https://HOST/transcripts/ID as the browser shows it, with
                        the server's token in ACP_PLAYGROUND_TOKEN (never on the command line), or a share
                        link https://HOST/share/ID?token=... (no token needed); read over http(s) only, up
                        to ACP_PLAYGROUND_UPLOAD_MAX_BYTES; a playground link is never followed to another origin`;

export const COMMANDS: Record<string, CommandHelp> = {
  serve: {
    synopsis: `acp-playground [serve] [--port N] [--config FILE] [--data DIR] [--no-open]
         [--database postgres://...] [--redis redis://...] [--agent NAME=COMMAND]... [--otlp URL [--otlp-header K=V]... [--otlp-content]] [-- COMMAND ARGS...]`,
    summary: "serve the playground for this folder (its workspace) and open it in the browser",
    details: `  --port N              the port (default: PORT, else 3000)
  --config FILE         a profiles file (default: ACP_PLAYGROUND_CONFIG, else the built-in profiles)
  --data DIR            where transcripts and reports are kept (default: ACP_PLAYGROUND_DATA,
                        else the user's data folder)
  --no-open             do not open the browser (also ACP_PLAYGROUND_OPEN=0)
  --database URL        keep the library in PostgreSQL, shared by every instance given the same URL
                        (default: ACP_PLAYGROUND_DATABASE_URL, else files in the data folder;
                        docs/scaling.md)
  --redis URL           share live events (watch links) with every instance given the same URL
                        (default: ACP_PLAYGROUND_REDIS_URL, else none; docs/scaling.md)
  --agent NAME=COMMAND  add an agent profile for this run and select it (COMMAND is split at spaces)
  -- COMMAND ARGS...    the same, every argument kept as given; the profile is named after COMMAND
  --otlp URL            also send every session live as OpenTelemetry traces to this OTLP/HTTP
                        endpoint (default: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or _ENDPOINT, else none;
                        docs/otel.md); --otlp-header K=V, --otlp-protocol, --otlp-content as for export`,
  },
  record: {
    synopsis: `acp-playground record --prompt TEXT [-o FILE] [--profile NAME] [--cwd DIR]
         [--permission ask|auto|deny] [--fs auto|deny] [--terminal auto|deny]`,
    summary: "start an agent, prompt it once, print its reply and write the transcript",
    details: `  --prompt TEXT         the one prompt sent (required)
  -o, --output FILE     the transcript written (default: run.jsonl)
  --profile NAME        the agent (default: the configured default profile)
  --cwd DIR             the agent's working directory: it reads and writes there (default: this folder)
  --permission POLICY   how the agent's permission requests are answered; default auto: each is
                        allowed at once ("allow once" where offered) with nobody asked;
                        deny rejects them, ask leaves them unanswered (the turn waits)
  --fs auto|deny        auto: the relay carries out the agent's fs/ reads and writes in --cwd and
                        advertises it; default: not advertised (the agent uses its own tools)
  --terminal auto|deny  the same for terminal/ requests (commands run in --cwd)`,
  },
  replay: {
    synopsis: `acp-playground replay FILE [--profile NAME] [--cwd DIR] [--ignore PATH]...`,
    summary: "re-run a transcript's client side against a fresh agent and print the diff",
    details: `  The recorded client frames are sent again and the agent's requests get the recorded answers.
  The agent is live: whatever its own tools do (reading, writing files, running commands) happens
  again, in --cwd. A recording made in another folder names that folder; replay there with
  --cwd RECORDED_DIR (the diff maps the recorded folder to --cwd in paths).
${FILE_IS}
  --profile NAME        the agent to run (--against is the same; default: the recording's profile)
  --cwd DIR             where the agent runs (default: this folder)
  --ignore PATH         leave a path out of the diff, e.g. result._meta.x (* any key, ** any depth)
  exit codes: 0 the agent behaved as recorded, 1 it did not (the diff is printed)`,
  },
  probe: {
    synopsis: `acp-playground probe [--profile NAME]... [--all] [--json] [--include-logout] [--terminals]
         [--auth-method ID]`,
    summary: "run the conformance battery against agents, each in a throw-away workspace",
    details: `  Prints the report, or with several profiles (or --all) the protocol matrix (Markdown).
  Reports are kept in the data directory. Requirements: docs/conformance.md.
  --profile NAME        an agent to probe, repeatable (default: the configured default profile)
  --all                 every profile
  --json                JSON instead of text (--format json is the same)
  --include-logout      also check logout (the agent may forget its credentials)
  --terminals           carry out the agent's terminal commands in the throw-away workspace (never a
                        URL profile's; the report lists them); default: terminals not advertised
  --auth-method ID      authenticate first (default: none; an agent that requires it is "blocked by auth")
  exit codes: 1 when an agent is NOT CONFORMANT, 3 when it does not start`,
  },
  tap: {
    synopsis: `acp-playground tap [--profile NAME | -- COMMAND ARGS...]`,
    summary: "stand in for an agent in any ACP client and copy every frame to the playground",
    details: `  Configure it as an ACP client's agent command: it starts the real agent, passes its stdio through
  untouched and copies every frame to the running playground (or records it when none runs);
  it exits with the agent's code. See docs/tap.md.
  --profile NAME        the agent, from the profiles file
  -- COMMAND ARGS...    the agent's command line, kept as given`,
  },
  compare: {
    synopsis: `acp-playground compare --profile A [--profile B] --prompt TEXT [--option [A.|B.]NAME=VALUE]...
         [--json] [-o FILE] [--transcripts DIR] [--fail-on-diff] [--timeout DURATION]
         [--permission auto|deny] [--fs auto|deny] [--terminal auto|deny]`,
    summary: "run one prompt on two agents at once and print the comparison report",
    details: `  Each side runs in a throw-away workspace. With one --profile both sides run it (set them
  apart with --option A.model=x).
  --option NAME=VALUE   a session option for both sides, or A./B. for one
  --json                JSON instead of Markdown (--format json is the same; so is -o FILE.json)
  -o, --output FILE     write the report there instead of printing it
  --transcripts DIR     keep both transcripts there (a.jsonl, b.jsonl)
  --fail-on-diff        exit 1 when the sides differ (default: exit 0 either way)
  --timeout DURATION    how long a side's turn may take: 90 (seconds), 90s, 1500ms, 10m (default: 10m)
  --permission POLICY   default auto: permission requests are allowed at once, nobody asked; deny rejects
  --fs, --terminal      auto: carried out in the side's workspace; default: not advertised`,
  },
  validate: {
    synopsis: `acp-playground validate FILE... [--format text|json|junit] [--json] [--side agent|client] [-o FILE]`,
    summary: "judge recorded traffic by the protocol's rules and the schema (docs/conformance.md)",
    details: `${FILE_IS};
                        also a tapped conversation, or a raw NDJSON capture of one side
  --format FORMAT       text (default), json or junit; --json is --format json
  --side agent|client   which side wrote a capture (the agent's stdout, or the client's writes to the
                        agent's stdin); default: told from its methods
  -o, --output FILE     write the report there instead of printing it
  exit codes: 0 conformant, 1 a MANDATORY requirement failed, 2 bad arguments, 4 unreadable or invalid file`,
  },
  "probe-client": {
    synopsis: `acp-playground probe-client [-o FILE] [--timeout DURATION]`,
    summary: "run as the agent command of any ACP client and test the client's side of the protocol",
    details: `  Configure it as the agent command of an ACP client and send one prompt: the probe answers
  initialize and session/new, then in that turn streams every update kind, asks permission,
  reads and writes files and runs terminals (only when advertised), cancels a request, sends
  an unknown request and notification, a malformed line and a 1 MiB message, and asks a form
  elicitation (when advertised).
  -o, --output FILE     the report goes to FILE.json and FILE.md (--report is the same; default: the
                        data directory's client-probes/)
  --timeout DURATION    how long to wait for an answer a person may give (permission, elicitation):
                        120 (seconds), 120s, 500ms, 2m (default: 2m)`,
  },
  mcp: {
    synopsis: `acp-playground mcp [--data DIR]`,
    summary: "serve the transcript library to AI agents over MCP (stdio; read-only, redacted)",
    details: `  Configure it as an MCP server (stdio) of an AI agent: list, search, read a turn or frames,
  insights, latency per method, diff two transcripts (docs/mcp.md). It runs until its client closes stdin.
  --data DIR            the data directory (default: ACP_PLAYGROUND_DATA, else the user's data folder)`,
  },
  publish: {
    synopsis: `acp-playground publish FILE... --to URL [--data DIR]`,
    summary: "upload local recordings into a team server (its token in ACP_PLAYGROUND_TOKEN)",
    details: `${FILE_IS}
  --to URL              the team server (http:// or https://), e.g. https://playground.example.com
  --data DIR            the local library ids are read from (default: ACP_PLAYGROUND_DATA, else the
                        user's data folder)
  The token is read from ACP_PLAYGROUND_TOKEN, never the command line (a FILE's link is sent the same
  token). Each FILE is named with its link or why it was refused (docs/scaling.md).
  exit codes: 0 all published, 1 some were refused, 2 bad arguments`,
  },
  export: {
    synopsis: `acp-playground export FILE [-o FILE.html]
       acp-playground export --viewer [-o viewer.html]
       acp-playground export --otlp URL FILE... [--otlp-header K=V]... [--otlp-protocol P] [--otlp-content]`,
    summary: "write a transcript as one self-contained HTML file (redacted, opens offline), or send it as traces",
    details: `${FILE_IS}
  -o, --output FILE     where the HTML goes (default: FILE with .html, or ID.html here for an id or a
                        link; with --viewer, viewer.html)
  --viewer              the same viewer with no transcript in it: it opens any transcript file
                        dropped on it or picked, offline
  --otlp URL            send the recordings as OpenTelemetry GenAI traces (one per prompt turn) to this
                        OTLP/HTTP endpoint instead (/v1/traces added to a base address; docs/otel.md)
  --otlp-header K=V     a header for the backend, e.g. its key (repeatable; also OTEL_EXPORTER_OTLP_HEADERS)
  --otlp-protocol P     http/protobuf (default, else OTEL_EXPORTER_OTLP_PROTOCOL) or http/json
  --otlp-content        add the messages and tool arguments (redacted); default: left out
  --otlp-link-base URL  the playground address in each span's link to its frame (default: the team
                        server's, for a link; else http://localhost:PORT)
  --otlp-new-ids        send again as new traces (default: the same ids each time, so a resend adds nothing)
  exit codes: 5 the endpoint is unreachable or refuses (the message names it and its answer)`,
  },
};

const EXIT_CODES =
  "exit codes: 0 ok, 1 difference found, 2 bad arguments, 3 agent failed to start, 4 unreadable or invalid file,\n  5 traces not sent (export --otlp)";
const DOCS_LINE = `docs: ${DOCS}`;

export const USAGE = `usage: acp-playground [serve] [options] [-- AGENT_COMMAND ARGS...]
       acp-playground <command> [options]      (acp-playground <command> --help: its options)

commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(14)}${c.summary}`)
  .join("\n")}

${EXIT_CODES}
${DOCS_LINE}`;

/** One command's help: synopsis, summary and its options with their defaults. */
export function commandUsage(command: string): string {
  const c = COMMANDS[command];
  if (!c) return USAGE;
  return `usage: ${c.synopsis}\n\n${c.summary}\n\n${c.details}\n\n${DOCS_LINE}`;
}

/**
 * The help asked for by a command line, or undefined: `--help`/`-h` anywhere before `--`
 * (after it they belong to the agent's command), or `help [COMMAND]`.
 */
export function helpFor(argv: readonly string[]): string | undefined {
  const [first, ...rest] = argv;
  if (first === "help") return rest[0] ? commandUsage(rest[0]) : USAGE;
  const own = argv.indexOf("--") < 0 ? argv : argv.slice(0, argv.indexOf("--"));
  if (!own.some((a) => a === "--help" || a === "-h")) return undefined;
  return first && COMMANDS[first] ? commandUsage(first) : USAGE;
}
