/** Client terminals (terminal/*), as the agent has seen them. */
import type { Frame } from "../../protocol/frame";
import { isObject, num, obj, str } from "../../protocol/json";
import { CLIENT_METHODS } from "../../protocol/methods";
import { compact, get, put, type Draft, type Obj } from "./draft";
import { SeqList } from "./seq-list";
import type { PendingRequest, SessionViewState, TerminalView } from "./types";

/** The terminal with this id, if the view knows it (ids come off the wire: own keys only). */
export function terminalOf(state: Pick<SessionViewState, "terminals">, terminalId: string): TerminalView | undefined {
  return get(state.terminals, terminalId);
}

/** The client's successful answers to the agent's terminal/ requests. */
export function onTerminalResult(d: Draft, f: Frame, pend: PendingRequest, r: Obj): void {
  const params = obj(pend.params);
  const terminalId = pend.method === CLIENT_METHODS.terminal_create ? str(r.terminalId) : str(params.terminalId);
  if (terminalId === undefined) return;
  const st = d.state();
  st.terminals = d.own(st.terminals);
  const cur = get(st.terminals, terminalId);
  const t = cur ? d.own(cur) : d.fresh<TerminalView>({ terminalId, truncated: false, seqs: SeqList.of(f.seq) });
  if (cur) t.seqs = t.seqs.append(f.seq);
  put(st.terminals, terminalId, t);
  const exitStatus = (v: Obj) =>
    compact({
      exitCode: num(v.exitCode) ?? (v.exitCode === null ? null : undefined),
      signal: str(v.signal) ?? (v.signal === null ? null : undefined),
    });
  switch (pend.method) {
    case CLIENT_METHODS.terminal_create:
      compact(
        Object.assign(t, {
          command: str(params.command),
          cwd: str(params.cwd),
          args: Array.isArray(params.args) ? params.args.filter((a): a is string => typeof a === "string") : undefined,
        }),
      );
      return;
    case CLIENT_METHODS.terminal_output:
      if (typeof r.output === "string") t.output = r.output;
      t.truncated = r.truncated === true;
      if (isObject(r.exitStatus)) t.exitStatus = exitStatus(r.exitStatus);
      return;
    case CLIENT_METHODS.terminal_wait_for_exit:
      t.exitStatus = exitStatus(r);
      return;
    case CLIENT_METHODS.terminal_release:
      t.released = true;
      return;
  }
}
