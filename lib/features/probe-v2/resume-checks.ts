/**
 * ACP-RESUME-201..205 (acp-tck v2 test_session_capabilities.py): a prompted session resumed
 * without replayFrom, then with replayFrom {type: "start"}, on the connection that made it.
 */
import type { CheckResult } from "../../contracts/requirements";
import { isObject } from "../../protocol/json";
import { messagesOf, updateOf, withConnection, type Msg } from "./connection";
import { openSession, type Ctx } from "./setup";
import { fail, pass, show, skip } from "./turn-checks";
import { runTurn, textPrompt } from "./turn";

const HISTORY = ["user_message", "agent_message", "agent_thought"];
const CHUNKS = HISTORY.map((k) => `${k}_chunk`);
const REMEMBER = "remember this";

/** The session's updates among messages. */
const updatesFor = (ms: Msg[], sessionId: string) =>
  ms.flatMap((m) => {
    const u = updateOf(m);
    return u && u.sessionId === sessionId ? [u.update] : [];
  });

export async function resumeChecks(ctx: Ctx): Promise<CheckResult[]> {
  return withConnection(ctx.connect, async (conn) => {
    const sessionId = await openSession(ctx, conn);
    if (!sessionId) return [skip("ACP-RESUME-201", "session/new failed")];
    const turn = await runTurn(conn, sessionId, textPrompt(REMEMBER), { timeoutMs: ctx.timeoutMs });
    const out: CheckResult[] = [];

    const plain = await conn.call("session/resume", { sessionId, cwd: ctx.cwd }, ctx.timeoutMs);
    const r = plain.response;
    if (!r) out.push(fail("ACP-RESUME-201", `no session/resume answer within ${ctx.timeoutMs} ms`));
    else if (isObject(r.result)) out.push(pass("ACP-RESUME-201", "session/resume answered an object"));
    else if (isObject(r.error) && r.error.code === -32601)
      out.push(fail("ACP-RESUME-201", "session/resume is -32601, but it is part of capabilities.session"));
    else out.push(skip("ACP-RESUME-201", `session/resume failed: ${show(r.error ?? r.result)}`));
    if (!r || !isObject(r.result)) {
      for (const id of ["ACP-RESUME-202", "ACP-RESUME-203", "ACP-RESUME-204", "ACP-RESUME-205"])
        out.push(skip(id, "session/resume did not succeed"));
      return out;
    }
    const replayed = updatesFor(plain.before, sessionId).filter((u) =>
      [...HISTORY, ...CHUNKS].includes(String(u.sessionUpdate)),
    );
    out.push(
      replayed.length
        ? fail(
            "ACP-RESUME-203",
            `replayFrom omitted, yet ${replayed.length} history update(s) came first: ${show(replayed[0])}`,
          )
        : pass("ACP-RESUME-203", "replayFrom omitted: no history replayed"),
    );

    const full = await conn.call(
      "session/resume",
      { sessionId, cwd: ctx.cwd, replayFrom: { type: "start" } },
      ctx.timeoutMs,
    );
    if (!isObject(full.response?.result)) {
      const why = `session/resume with replayFrom start failed: ${show(full.response?.error ?? "no answer")}`;
      out.push(fail("ACP-RESUME-202", why), skip("ACP-RESUME-204", why), skip("ACP-RESUME-205", why));
      return out;
    }
    const trailing = updatesFor((await conn.drain(ctx.quietMs)).flatMap(messagesOf), sessionId).filter(
      (u) => u.sessionUpdate !== "notice",
    );
    const history = updatesFor(full.before, sessionId);
    out.push(
      trailing.length
        ? fail("ACP-RESUME-202", `${trailing.length} update(s) after the resume response: ${show(trailing[0])}`)
        : pass("ACP-RESUME-202", `${history.length} update(s) before the response, none after`),
    );

    const users = history.filter((u) => u.sessionUpdate === "user_message" || u.sessionUpdate === "user_message_chunk");
    const mentions = (u: Msg) => {
      const c = u.content;
      const blocks = Array.isArray(c) ? c : [c];
      return blocks.some((b) => isObject(b) && b.text === REMEMBER);
    };
    if (!turn.messageId) out.push(skip("ACP-RESUME-204", "the prompt's response carried no messageId"));
    else if (!users.length) out.push(skip("ACP-RESUME-204", "the user message was not replayed (allowed)"));
    else {
      const wrong = users.filter((u) => mentions(u) && u.messageId !== turn.messageId);
      out.push(
        wrong.length
          ? fail(
              "ACP-RESUME-204",
              `replayed with messageId ${show(wrong[0]!.messageId)}, the prompt got ${show(turn.messageId)}`,
            )
          : pass("ACP-RESUME-204", "the replayed user message kept its messageId"),
      );
    }

    const bad: string[] = [];
    let chunks = 0;
    history.forEach((u, i) => {
      const kind = String(u.sessionUpdate);
      if (!CHUNKS.includes(kind)) return;
      chunks++;
      const whole = kind.slice(0, -"_chunk".length);
      const primed = history
        .slice(0, i)
        .some(
          (p) =>
            p.sessionUpdate === whole &&
            p.messageId === u.messageId &&
            Array.isArray(p.content) &&
            p.content.length === 0,
        );
      if (!primed) bad.push(`${kind} of ${show(u.messageId)} with no ${whole} (content: []) before it`);
    });
    out.push(
      bad.length
        ? fail("ACP-RESUME-205", bad[0]!)
        : pass(
            "ACP-RESUME-205",
            chunks ? `${chunks} replayed chunk(s), each after its primer` : "no chunk replayed (vacuous)",
          ),
    );
    return out;
  });
}
