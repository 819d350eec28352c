/** The CLI's usage text: its own module, so `--help` answers without loading the rest (bin/acp-playground.mjs). */
export const USAGE = `usage: acp-playground [serve] [options] [-- AGENT_COMMAND ARGS...]
       acp-playground <command> [options]

  (no command), serve                     serve the playground for this folder (its workspace) and open it
         [--port N] [--config FILE] [--data DIR] [--no-open] [--database postgres://...]
         [--agent NAME=COMMAND]... [-- COMMAND ARGS...]
                                          --database keeps the library in PostgreSQL (docs/scaling.md)
                                          --agent / -- add an agent profile for this run and select it
                                          (--agent's COMMAND is split at spaces; after -- every argument is kept)

commands:
  record --prompt TEXT [-o run.jsonl]     start an agent, prompt it once, write the transcript
         [--profile NAME] [--cwd DIR] [--permission ask|auto|deny] [--fs auto|deny] [--terminal auto|deny]
  replay FILE [--against PROFILE] [--cwd DIR] [--ignore PATH]...
                                          re-run a transcript's client side against a fresh agent,
                                          print the diff; exit 1 when the agent behaved differently
                                          (--ignore result._meta.x leaves a path out; * any key, ** any depth)
  probe [--profile NAME]... [--all] [--json] [--include-logout] [--terminals] [--auth-method ID]
                                          run the conformance battery, each agent in a throw-away
                                          workspace; print the report, or with several profiles
                                          (or --all) the protocol matrix (Markdown; --json for JSON).
                                          Exit 1 when an agent is NOT CONFORMANT (docs/conformance.md);
                                          --auth-method authenticates first (else an agent that
                                          requires it is "blocked by auth").
                                          Reports are kept in the data directory. --terminals runs the
                                          agent's terminal commands there (never a URL profile's; the
                                          report lists them); without it terminals are not advertised.
                                          A Codex app-server profile gets that protocol's checks (ASP-*)
  tap [--profile NAME | -- COMMAND ARGS...]
                                          stand in for an agent in any ACP client (docs/tap.md): start the
                                          real agent, pass its stdio through untouched, copy every frame to
                                          the running playground (or record it); exits with the agent's code
  compare --profile A [--profile B] --prompt TEXT [--option A.model=x] [--json] [-o report.md] [--fail-on-diff]
                                          run one prompt on two agents at once, each in a throw-away workspace;
                                          print the comparison report (exit 1 on differences only with --fail-on-diff)
  validate FILE... [--format text|json|junit] [--side agent|client] [-o FILE]
                                          judge recorded traffic (transcripts, tapped conversations, raw
                                          NDJSON captures of either side) by the protocol's rules and the
                                          schema (docs/conformance.md); exit 1 when
                                          a MANDATORY requirement fails
  probe-client [--report FILE] [--timeout MS]
                                          run as the agent command in any ACP client: a scripted agent that
                                          exercises the client's side of the protocol in its first prompt
                                          turn; the report (FILE.json, FILE.md; default: the data
                                          directory's client-probes/) judges each requirement
  publish FILE... --to URL                upload recordings into a team server (its token in ACP_PLAYGROUND_TOKEN)
  mcp [--data DIR]                        serve the transcript library to AI agents over MCP (stdio; read-only,
                                          redacted as share links are): list, search, read a turn or frames,
                                          insights, latency per method, diff two (docs/mcp.md)
  export FILE [-o run.html]               write the transcript as one self-contained HTML file
                                          (redacted, opens offline; default: FILE with .html)
  export --viewer [-o viewer.html]        write the same viewer with no transcript in it: it opens any
                                          transcript file dropped on it or picked, offline

exit codes: 0 ok, 1 difference found, 2 bad arguments, 3 agent failed to start, 4 unreadable or invalid file`;
