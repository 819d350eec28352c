/**
 * Codex's app-server spec (docs/app-server.md): thread- and turn-oriented, no `"jsonrpc"` member,
 * the client answers approvals; its handshake, probe and view live beside this file's imports.
 */
import { APP_SERVER_CLIENT, APP_SERVER_NOTIFICATIONS } from "../../../protocol/app-server-methods";
import { isObject } from "../../../protocol/json";
import { AGENT_METHODS } from "../../../protocol/methods";
import { PROTOCOLS } from "../../../protocol/protocols";
import { fail } from "../../../protocol/result";
import { runAppServerHandshake, runAppServerTurn } from "./handshake";
import { foldFactsAlone } from "../../../folds/agent-facts";
import { threadTopic } from "../../../folds/conversation-topic";
import { EMPTY_APP_SERVER_CONVERSATION, foldAppServerConversation, type AppServerConversation } from "./conversation";
import { APP_SERVER_COMPOSE_RULES } from "../../compose/catalog";
import { appServerTurns } from "./compare-turns";
import { APP_SERVER_PROMPT_CLIENT } from "../../connect/flow-prompt";
import { appServerAnswer } from "./policy";
import type { ProtocolSpec } from "../spec";

/** The longest a turn may take when the caller sets no limit (its turn always has one). */
const TURN_LIMIT_MS = 24 * 60 * 60_000;

/**
 * Requests a re-run never sends: a command line, and writes to Codex's own config or installs
 * (an MCP server or a `notify` command written there runs later), or an upload of files.
 */
const NOT_RERUN: ReadonlySet<string> = new Set([
  "command/exec",
  "config/value/write",
  "config/batchWrite",
  "modelProvider/config/write",
  "skills/config/write",
  "plugin/install",
  "marketplace/add",
  "externalAgentConfig/import",
  "feedback/upload",
]);

export const APP_SERVER_SPEC: ProtocolSpec<AppServerConversation> = {
  ...PROTOCOLS["codex-app-server"],
  name: "codex-app-server",
  // Codex reads its credentials (or a custom provider) from its config: no auth step, and no warm pool.
  poolable: false,
  connect: (deps, input, limits) =>
    runAppServerHandshake(
      {
        port: {
          request: (method, params) => deps.request(method, params),
          notify: (m, p) => deps.notify?.(m, p) ?? Promise.resolve(fail("this Connect cannot send notifications")),
        },
        progress: (p) => deps.progress(p),
      },
      { cwd: input.cwd, timeouts: { initialize: limits.initialize, thread: limits[AGENT_METHODS.session_new] } },
    ),
  side: {
    open: (port, input) => runAppServerHandshake({ port }, { cwd: input.cwd }),
    turn: async (port, input, sessionId) => {
      const turn = await runAppServerTurn(port, sessionId, input.prompt, input.promptTimeoutMs ?? TURN_LIMIT_MS);
      return turn.ok ? { ok: true, stopReason: turn.status } : { ok: false, message: turn.message };
    },
  },
  promptClient: APP_SERVER_PROMPT_CLIENT,
  // Loaded when a probe runs: the pages that only show a conversation (the one-file export) leave it out.
  probe: (driver, options) => import("./probe").then((m) => m.runAppServerProbe(driver, options)),
  answer: appServerAnswer,
  // Its threads and turns, and the facts (initialize's answer) without ACP's session view.
  emptyConversation: EMPTY_APP_SERVER_CONVERSATION,
  foldLog(frames, prev) {
    const facts = foldFactsAlone(frames, prev.facts);
    const conversation = foldAppServerConversation(frames, prev.conversation);
    return facts === prev.facts && conversation === prev.conversation ? prev : { facts, conversation };
  },
  topic: (conversation) => threadTopic(conversation.view),
  compareTurns: appServerTurns,
  compose: APP_SERVER_COMPOSE_RULES,
  ids: {
    // Threads, turns and items are named by the agent (items by the model: a fake one numbers them
    // over its life), a command by its process. `sessionId` is a thread's too.
    keys: new Map([
      ["sessionId", "session"],
      ["threadId", "thread"],
      ["turnId", "turn"],
      ["rootTurnId", "turn"],
      ["itemId", "item"],
      ["processId", "process"],
    ]),
    owners: new Map([
      ["thread", "thread"],
      ["turn", "turn"],
      ["turns", "turn"],
      ["item", "item"],
      ["items", "item"],
    ]),
    rolloutTime: true,
  },
  // A turn answers at once; the diff's window runs to its end.
  turnEndNotification: APP_SERVER_NOTIFICATIONS.turn_completed,
  // Codex answers turn/start from its request handler and sends turn/started from the thread's
  // listener: either may reach the client first (a clean-clone re-run saw both orders).
  answeredWhileWorking: new Map([
    [APP_SERVER_CLIENT.turn_start, APP_SERVER_NOTIFICATIONS.turn_started],
    [APP_SERVER_CLIENT.thread_start, APP_SERVER_NOTIFICATIONS.thread_started],
  ]),
  // Its `config` overrides name commands (`mcp_servers`, `notify`); NOT_RERUN are never sent.
  rerunLeaveOut: (message) => {
    if (typeof message.method === "string" && NOT_RERUN.has(message.method)) return { skip: true };
    const params = message.params;
    if (isObject(params) && "config" in params) {
      delete params.config;
      return "its config overrides";
    }
    return undefined;
  },
  // The app-server's own way to tell the user something outside a turn's items.
  replayNote: (params, said) => ({
    method: APP_SERVER_NOTIFICATIONS.warning,
    params: { message: said, threadId: isObject(params) ? params.threadId : undefined },
  }),
};
