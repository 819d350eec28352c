/**
 * The --permission, --fs and --terminal flags of `record` and `compare`: one
 * action for permission requests (a Codex app-server's approvals among them),
 * one for the fs methods, one for the terminal methods.
 */
import { CLIENT_METHODS } from "../../lib/protocol/methods";
import { type Policies } from "../../lib/features/answers/policy";
import { APP_SERVER_ANSWERABLE, SERVED_METHODS, type Policy } from "../../lib/contracts/policies";
import { fail, ok, type Result } from "../../lib/protocol/result";

export interface PolicyFlags<P extends Policy = Policy> {
  permission: P;
  /** Not given: no policy for the fs methods (the relay's default). */
  fs?: P;
  terminal?: P;
}

export interface FlagPolicies {
  policies: Policies;
  /** What the relay answers by itself, so the client advertises just that. */
  answers: { fs: boolean; terminal: boolean };
}

/** Reads each flag as one of `allowed`; a flag not given takes its value in `defaults`. */
export function flagPolicies<P extends Policy>(
  values: Partial<Record<keyof PolicyFlags, unknown>>,
  allowed: readonly P[],
  defaults: PolicyFlags<P>,
): Result<FlagPolicies> {
  const flags: PolicyFlags<P> = { ...defaults };
  for (const name of ["permission", "fs", "terminal"] as const) {
    const value = values[name];
    if (value === undefined) continue;
    if (!allowed.includes(value as P))
      return fail(`--${name} must be ${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}`);
    flags[name] = value as P;
  }
  // --permission answers ACP's permission requests and the app-server's approvals (and questions) alike.
  const policies: Policies = Object.fromEntries(
    [CLIENT_METHODS.session_request_permission, ...APP_SERVER_ANSWERABLE].map((m) => [m, flags.permission]),
  );
  for (const m of SERVED_METHODS) {
    const policy = m.startsWith("fs/") ? flags.fs : flags.terminal;
    if (policy) policies[m] = policy;
  }
  return ok({ policies, answers: { fs: flags.fs === "auto", terminal: flags.terminal === "auto" } });
}
