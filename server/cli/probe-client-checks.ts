/**
 * The client probe's checks of what the client offers beside the turn: its file system and
 * terminals (only when advertised) and the schema of every line it wrote.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { clientAdvertised } from "../../lib/features/probe/client-probe";
import { isObject } from "../../lib/protocol/json";
import { CLIENT_METHODS } from "../../lib/protocol/methods";
import { schemaSet } from "../agents/client-services";
import type { ProbeAgent } from "./probe-client-agent";

export async function fsChecks(
  agent: ProbeAgent,
  caps: unknown,
  cwd: string | undefined,
  sessionId: string,
): Promise<void> {
  const readable = clientAdvertised(caps, "fs.readTextFile");
  const writable = clientAdvertised(caps, "fs.writeTextFile");
  if (!cwd || !path.isAbsolute(cwd) || (!readable && !writable)) return;
  const tag = randomBytes(4).toString("hex");
  const inside = path.join(cwd, `.acp-probe-client-${tag}.txt`);
  const outsideDir = path.join(tmpdir(), `acp-probe-client-${tag}`);
  const outside = path.join(outsideDir, "outside.txt");
  // The probe runs beside the client: it sees the files the client wrote, and cleans up after.
  const local = existsSync(cwd);
  const content = `written by the ACP client probe ${tag}\n`;
  const outsideNotes: string[] = [];
  const frames: number[] = [];
  try {
    mkdirSync(outsideDir, { recursive: true, mode: 0o700 });
    if (writable) {
      const w = agent.request(CLIENT_METHODS.fs_write_text_file, { sessionId, path: inside, content });
      const a = await w.answer;
      const onDisk = local && existsSync(inside) ? readFileSync(inside, "utf8") : undefined;
      const ok = a !== undefined && a.error === undefined && (!local || onDisk === content);
      agent.check(
        "PG-CLIENT-013",
        ok ? "pass" : "fail",
        !a
          ? `no answer in ${agent.shortMs} ms`
          : a.error
            ? `error ${JSON.stringify(a.error).slice(0, 200)}`
            : !local
              ? "answered (the cwd is not on this machine: the file was not looked at)"
              : onDisk === content
                ? "the file has the content"
                : `the file ${onDisk === undefined ? "does not exist" : "has other content"}`,
        [w.frame.seq, ...(a ? [a.frame.seq] : [])],
      );
      const wo = agent.request(CLIENT_METHODS.fs_write_text_file, { sessionId, path: outside, content });
      const ao = await wo.answer;
      outsideNotes.push(
        `write ${ao?.error ? "refused" : ao ? (existsSync(outside) ? "served" : "answered, no file") : "unanswered"}`,
      );
      frames.push(wo.frame.seq);
    }
    if (readable) {
      if (!writable && local) writeFileSync(inside, content);
      writeFileSync(outside, content);
      const r = agent.request(CLIENT_METHODS.fs_read_text_file, { sessionId, path: inside });
      const a = await r.answer;
      const got = isObject(a?.result) ? a.result.content : undefined;
      const expectable = writable || local;
      agent.check(
        "PG-CLIENT-012",
        got === content ? "pass" : expectable ? "fail" : "skip",
        !a
          ? `no answer in ${agent.shortMs} ms`
          : got === content
            ? "returned the file's content"
            : `returned ${JSON.stringify(a.result ?? a.error).slice(0, 200)}`,
        [r.frame.seq, ...(a ? [a.frame.seq] : [])],
      );
      const ro = agent.request(CLIENT_METHODS.fs_read_text_file, { sessionId, path: outside });
      const ao = await ro.answer;
      const served = isObject(ao?.result) && ao.result.content === content;
      outsideNotes.push(`read ${ao?.error ? "refused" : served ? "served" : ao ? "answered otherwise" : "unanswered"}`);
      frames.push(ro.frame.seq);
    }
    agent.check("PG-CLIENT-014", "pass", `outside the cwd (${outside}): ${outsideNotes.join(", ")}`, frames);
  } finally {
    rmSync(outsideDir, { recursive: true, force: true });
    if (local) rmSync(inside, { force: true });
  }
}

export async function terminalChecks(agent: ProbeAgent, caps: unknown, cwd: string | undefined, sessionId: string) {
  if (!clientAdvertised(caps, "terminal")) return;
  const run = async (args: string[]) => {
    const c = agent.request(CLIENT_METHODS.terminal_create, {
      sessionId,
      command: process.execPath,
      args,
      ...(cwd ? { cwd } : {}),
    });
    const a = await c.answer;
    const id = isObject(a?.result) ? a.result.terminalId : undefined;
    return { seq: c.frame.seq, answer: a, id: typeof id === "string" ? id : undefined };
  };
  const call = async (method: string, terminalId: string, timeoutMs = agent.shortMs) => {
    const r = agent.request(method, { sessionId, terminalId }, timeoutMs);
    const a = await r.answer;
    return { seq: r.frame.seq, answer: a, result: isObject(a?.result) ? a.result : undefined };
  };
  const said = "acp-probe-client";
  const first = await run(["-e", `process.stdout.write(${JSON.stringify(said)})`]);
  if (!first.id) {
    agent.check("PG-CLIENT-015", "fail", `terminal/create: ${JSON.stringify(first.answer?.error ?? "no answer")}`, [
      first.seq,
    ]);
  } else {
    const waited = await call(CLIENT_METHODS.terminal_wait_for_exit, first.id);
    const output = await call(CLIENT_METHODS.terminal_output, first.id);
    const released = await call(CLIENT_METHODS.terminal_release, first.id);
    const problems = [
      waited.result?.exitCode === 0
        ? ""
        : `wait_for_exit: ${JSON.stringify(waited.answer?.result ?? waited.answer?.error ?? "no answer")}`,
      typeof output.result?.output === "string" && output.result.output.includes(said)
        ? ""
        : `output: ${JSON.stringify(output.answer?.result ?? output.answer?.error ?? "no answer").slice(0, 200)}`,
      released.answer && !released.answer.error ? "" : "release: not answered with a result",
    ].filter(Boolean);
    agent.check(
      "PG-CLIENT-015",
      problems.length ? "fail" : "pass",
      problems.length ? problems.join("; ") : "exit code 0, output seen, released",
      [first.seq, waited.seq, output.seq, released.seq],
    );
  }
  const second = await run(["-e", "setInterval(() => {}, 1000)"]);
  if (!second.id) {
    agent.check("PG-CLIENT-016", "fail", `terminal/create: ${JSON.stringify(second.answer?.error ?? "no answer")}`, [
      second.seq,
    ]);
    return;
  }
  const killed = await call(CLIENT_METHODS.terminal_kill, second.id);
  const waited = await call(CLIENT_METHODS.terminal_wait_for_exit, second.id);
  const released = await call(CLIENT_METHODS.terminal_release, second.id);
  const ok = killed.answer && !killed.answer.error && waited.result && released.answer && !released.answer.error;
  agent.check(
    "PG-CLIENT-016",
    ok ? "pass" : "fail",
    ok
      ? `killed; exit ${JSON.stringify(waited.result)}`
      : `kill ${JSON.stringify(killed.answer?.error ?? (killed.answer ? "ok" : "unanswered"))}, wait_for_exit ${waited.result ? "returned" : "did not return"}`,
    [second.seq, killed.seq, waited.seq, released.seq],
  );
}

/** Every line the client wrote: valid JSON-RPC, and matching the schema that defines it. */
export function schemaChecks(agent: ProbeAgent): void {
  const schemas = schemaSet();
  let judged = 0;
  for (const f of agent.frames) {
    if (f.dir !== "to-agent") continue;
    judged++;
    if (f.kind === "invalid") {
      agent.check("PG-CLIENT-005", "fail", `not an ACP message: ${f.error ?? "invalid"}`, [f.seq]);
      continue;
    }
    const verdict = schemas.check(f);
    if (verdict?.issues.length)
      agent.check(
        "PG-CLIENT-005",
        "fail",
        `${f.method ?? f.kind}: ${verdict.issues.map((i) => `${i.path || "value"}: ${i.message}`).join("; ")}`,
        [f.seq],
      );
  }
  if (!agent.checks.some((c) => c.requirement === "PG-CLIENT-005"))
    agent.check("PG-CLIENT-005", judged ? "pass" : "skip", `${judged} lines from the client`);
}
