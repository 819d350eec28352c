/** The probe of a Codex app-server agent, loaded by its spec when a probe runs (./spec.ts). */
import { ANSWERABLE_METHODS, UNKNOWN_METHODS } from "../../../contracts/policies";
import { judge } from "../../../contracts/requirements";
import type { ProbeResult } from "../../probe/probe";
import { ProbeContext, type Driver, type ProbeOptions } from "../../probe/context";
import { APP_SERVER_REQUIREMENTS } from "./probe-requirements";
import { appServerAgent, appServerFacts, APP_SERVER_STEPS } from "./probe-steps";

/**
 * The probe of an app-server agent (lib/features/protocols/codex-app-server/probe-steps.ts): its own steps and
 * requirements, one part that decides. The probe answers the agent's requests itself (approvals).
 */
export async function runAppServerProbe(driver: Driver, options: ProbeOptions): Promise<ProbeResult> {
  driver.answerWith(Object.fromEntries([...ANSWERABLE_METHODS, UNKNOWN_METHODS].map((m) => [m, "ask"])));
  const ctx = new ProbeContext(driver, options, { on: false, why: "terminals off: not part of this protocol" });
  for (const step of APP_SERVER_STEPS) await step.run(ctx);
  const judged = judge(APP_SERVER_REQUIREMENTS, ctx.checks, { advertised: () => true, blockedByAuth: false });
  return {
    rows: ctx.rows,
    checks: ctx.checks,
    conformance: { verdict: judged.verdict, parts: [{ variant: "app-server", decides: true, ...judged }] },
    facts: appServerFacts(ctx),
    agent: appServerAgent(ctx.init),
  };
}
