/**
 * Steps for the kit's JSON-RPC, transport and process requirements the probe took up last
 * (lib/features/probe/kit-requirements.ts): a request without params, errors' messages, a
 * line that is not JSON-RPC, an unknown session, UTF-8 and the schema over the run, stderr,
 * and the exit once stdin is closed.
 */
import { NOT_UTF8 } from "../../protocol/frame-sequencer";
import { AGENT_METHODS } from "../../protocol/methods";
import { sessionNewParams } from "../connect/handshake";
import { R } from "./requirements";
import { answerOf, errorOf, framesOf, keys, messageOf, resultOf, row, type ProbeContext, type Reply } from "./context";

/** How long the agent has to exit once its stdin is closed (the kit's --close-grace). */
export const EXIT_GRACE_MS = 2_000;

const EXT = "_acp_playground/no_such_method";

/** An error's message: non-empty and one line. */
function messageProblem(reply: Reply): string | undefined {
  const err = errorOf(reply.frame);
  if (!err || typeof err.message !== "string") return undefined;
  if (err.message === "") return "empty message";
  if (err.message.includes("\n")) return `message with a newline: ${JSON.stringify(err.message.slice(0, 80))}`;
  return undefined;
}

/**
 * An unknown `_` method sent without params (as the kit sends it: Qwen Code answers -32603
 * there, -32601 with `params: {}`), session/new without its cwd, then a plain session/new:
 * the errors' messages, and that the connection survives them.
 */
export async function withoutParams(ctx: ProbeContext) {
  const ext = await ctx.request(EXT, undefined);
  const code = errorOf(ext.frame)?.code;
  ctx.push(row("unknown `_` extension method without params", EXT, ext, keys), [
    ctx.check(R.extRequest, ext.frame ? "pass" : "fail", `without params: ${answerOf(ext)}`, framesOf(ext)),
    // Silence is ACP-EXT-001's failure; the code is judged only once there is an answer.
    ext.frame
      ? ctx.check(
          R.unknownMethod,
          code === -32601 ? "pass" : "fail",
          `${EXT} without params: ${answerOf(ext)}`,
          framesOf(ext),
        )
      : ctx.check(R.unknownMethod, "skip", `${EXT} without params: no answer`),
  ]);
  const noCwd = await ctx.request(AGENT_METHODS.session_new, { mcpServers: [] });
  const problems = [
    ...[ext, noCwd].flatMap((reply, i) => {
      const p = messageProblem(reply);
      return p ? [`${i ? "session/new without cwd" : EXT}: ${p}`] : [];
    }),
  ];
  const errors = [ext, noCwd].filter((r) => errorOf(r.frame)).length;
  const after = await ctx.request(AGENT_METHODS.session_new, sessionNewParams(ctx.options.cwd));
  const usable = typeof resultOf(after.frame)?.sessionId === "string";
  ctx.push(row("session/new without cwd", AGENT_METHODS.session_new, noCwd, keys), [
    ctx.check(
      R.errorMessages,
      problems.length ? "fail" : "pass",
      problems.length ? problems.join("; ") : `${errors} error messages, each one non-empty line`,
      [...framesOf(ext), ...framesOf(noCwd)],
    ),
    ctx.check(
      R.survivesError,
      usable ? "pass" : "fail",
      usable ? "the next session/new succeeded" : `the next session/new: ${answerOf(after)}`,
      framesOf(after),
    ),
  ]);
}

/** A JSON line that is not JSON-RPC: what the agent answers (observed), and whether the connection stays usable. */
export async function notJsonRpc(ctx: ProbeContext) {
  const before = ctx.lastSeq();
  ctx.driver.raw('{"foo":"bar"}');
  const answer = await ctx.waitFor((f) => f.dir === "from-agent" && f.seq > before && f.kind === "response", 1_500);
  const code = answer ? messageOf(answer)?.error?.code : undefined;
  const after = await ctx.request(AGENT_METHODS.session_new, sessionNewParams(ctx.options.cwd));
  const detail = `${answer ? (code === -32600 ? "answered -32600 Invalid Request" : `answered ${JSON.stringify(messageOf(answer)).slice(0, 100)}`) : "silent"}; ${after.frame ? "the connection stays usable" : "no answer to the next request"}`;
  ctx.push({ check: "a JSON line that is not JSON-RPC", outcome: answer ? "error" : "no reply", detail }, [
    ctx.check(R.invalidRequest, "pass", detail, [...(answer ? [answer.seq] : []), ...framesOf(after)]),
  ]);
}

/** session/prompt for a session never created: the answer is recorded, not judged. */
export async function unknownSession(ctx: ProbeContext) {
  const reply = await ctx.request(
    AGENT_METHODS.session_prompt,
    { sessionId: "acp-playground-no-such-session", prompt: [{ type: "text", text: "hi" }] },
    { timeoutMs: ctx.t },
  );
  const err = errorOf(reply.frame);
  const detail = !reply.frame
    ? "silent"
    : err
      ? `error ${err.code}: ${String(err.message).slice(0, 120)}`
      : "a result (no error)";
  ctx.push(row("session/prompt for a session never created", AGENT_METHODS.session_prompt, reply, keys), [
    ctx.sessionCheck(R.unknownSession, "pass", detail, framesOf(reply)),
  ]);
}

/** Over the run: every line UTF-8; the basic exchange's messages valid by the schema. */
export function transportAndSchema(ctx: ProbeContext) {
  const fromAgent = ctx.parsed().filter((f) => f.dir === "from-agent");
  const notUtf8 = fromAgent.filter((f) => f.rawBase64 !== undefined || f.error === NOT_UTF8);
  ctx.check(
    R.utf8,
    notUtf8.length ? "fail" : "pass",
    notUtf8.length ? `${notUtf8.length} lines that are not UTF-8` : `${fromAgent.length} lines, all UTF-8`,
    notUtf8.map((f) => f.seq).slice(0, 20),
  );
  const schemas = ctx.options.schemas;
  const end = ctx.basicExchangeEnd;
  if (!schemas || end === undefined) {
    ctx.check(R.schema, "skip", schemas ? "no prompt turn to judge" : "no schema given");
    return;
  }
  // From the real initialize's answer on: the odd version's answer may be another version's shape.
  const start = ctx.oddInit?.frame?.seq ?? ctx.firstSeq;
  const bad: Array<{ seq: number; why: string }> = [];
  let judged = 0;
  for (const f of fromAgent) {
    if (f.seq <= start || f.seq > end || f.kind === "invalid") continue;
    judged++;
    const issues = schemas.check(f)?.issues ?? [];
    if (issues.length)
      bad.push({
        seq: f.seq,
        why: `${f.method ?? f.kind}: ${issues.map((i) => `${i.path || "value"}: ${i.message}`).join("; ")}`,
      });
  }
  ctx.check(
    R.schema,
    bad.length ? "fail" : "pass",
    bad.length ? `${bad.length} invalid messages; ${bad[0]!.why}`.slice(0, 300) : `${judged} messages, all valid`,
    bad.map((b) => b.seq).slice(0, 20),
  );
}

/** Last: what the agent wrote to stderr (observed), then stdin closed: does it exit on its own? */
export async function processEnd(ctx: ProbeContext) {
  const stderr = ctx.driver.stderr?.();
  const bytes = stderr === undefined ? undefined : new TextEncoder().encode(stderr).length;
  ctx.push(
    {
      check: "stderr",
      outcome: "answered",
      detail: bytes === undefined ? "not seen by this driver" : `${bytes} bytes`,
    },
    [
      ctx.sessionCheck(
        R.stderr,
        "pass",
        bytes === undefined ? "stderr not seen (the agent is not a process here)" : `${bytes} bytes on stderr`,
      ),
    ],
  );
  const exited = ctx.driver.endInput ? await ctx.driver.endInput(EXIT_GRACE_MS) : undefined;
  const detail =
    exited === undefined
      ? "not exercised: the agent is not a process here"
      : exited
        ? `exited within ${EXIT_GRACE_MS / 1000} s of stdin closing`
        : `still running ${EXIT_GRACE_MS / 1000} s after stdin closed`;
  ctx.push({ check: "exit once stdin is closed", outcome: exited === undefined ? "skipped" : "answered", detail }, [
    ctx.check(R.shutdown, exited === undefined ? "skip" : exited ? "pass" : "fail", detail),
  ]);
}
