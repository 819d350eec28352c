/**
 * Switching what the session advertises: a mode, a model (removed from the spec), a config
 * option, each to another value and back.
 */
import { isObject } from "../../protocol/json";
import { AGENT_METHODS } from "../../protocol/methods";
import { R } from "./requirements";
import { answerOf, errorOf, framesOf, keys, resultOf, row, type ProbeContext, type Reply } from "./context";
import { SET_MODEL, ids, modesOf, modelsOf, configOptionsOf, selectValues, paramsFor, sid } from "./shared";

/**
 * Switches to another advertised value and back (setting the current one proves
 * nothing: Gemini refuses `autoEdit` in an untrusted folder, which only a real
 * switch shows). Tries the others in order until one is accepted; the report shows each refusal.
 */
async function switchAndBack(
  ctx: ProbeContext,
  current: string,
  others: readonly string[],
  call: (value: string) => Promise<Reply>,
): Promise<{ to?: string; there?: Reply; back?: Reply; refused: Array<{ value: string; reply: Reply }> }> {
  const refused: Array<{ value: string; reply: Reply }> = [];
  for (const value of others) {
    const there = await call(value);
    if (!there.frame || errorOf(there.frame)) {
      refused.push({ value, reply: there });
      continue;
    }
    return { to: value, there, back: await call(current), refused };
  }
  return { refused };
}

const refusals = (refused: Array<{ value: string; reply: Reply }>) =>
  refused.map((r) => `${r.value} refused (${answerOf(r.reply)})`);

export async function setMode(ctx: ProbeContext) {
  const method = AGENT_METHODS.session_set_mode;
  const modes = modesOf(ctx);
  const available = ids(modes.availableModes, "id");
  const current = typeof modes.currentModeId === "string" ? modes.currentModeId : available[0];
  if (!current) {
    ctx.push({ check: method, method, outcome: "not applicable", detail: "the agent listed no modes" });
    return;
  }
  const others = available.filter((m) => m !== current);
  if (!others.length) {
    // Nothing to switch to: the current one at least must be accepted.
    const same = await ctx.request(method, { sessionId: sid(ctx), modeId: current });
    ctx.push(row(`session/set_mode to the current mode (the only one)`, method, same, keys), [
      ctx.sessionCheck(R.modeSwitch, "skip", `only one mode listed (${current})`, framesOf(same)),
    ]);
    return;
  }
  const r = await switchAndBack(ctx, current, others, (modeId) => ctx.request(method, { sessionId: sid(ctx), modeId }));
  const ok = !!r.back?.frame && !errorOf(r.back.frame);
  const detail = [
    ...refusals(r.refused),
    ...(r.to
      ? [`${current} → ${r.to} accepted`, `back to ${current} ${ok ? "accepted" : `: ${answerOf(r.back!)}`}`]
      : []),
  ].join(", ");
  const frames = [
    ...r.refused.flatMap((x) => framesOf(x.reply)),
    ...(r.there ? framesOf(r.there) : []),
    ...(r.back ? framesOf(r.back) : []),
  ];
  const shown = r.there ?? r.refused.at(-1)!.reply;
  ctx.push({ ...row(`session/set_mode to another mode and back`, method, shown, keys), detail: detail.slice(0, 300) }, [
    // A listed mode is one "the Agent can operate in" (schema: SessionModeState.availableModes): refusing it fails.
    ctx.sessionCheck(R.modeSwitch, r.to && ok && !r.refused.length ? "pass" : "fail", detail, frames),
  ]);
}

export async function setModel(ctx: ProbeContext) {
  const models = modelsOf(ctx);
  const available = ids(models.availableModels, "modelId");
  const current = typeof models.currentModelId === "string" ? models.currentModelId : available[0];
  if (!current) {
    ctx.push({
      check: `${SET_MODEL} (removed from the spec)`,
      method: SET_MODEL,
      outcome: "not applicable",
      detail: "the agent listed no models",
    });
    return;
  }
  const others = available.filter((m) => m !== current);
  const call = (modelId: string) => ctx.request(SET_MODEL, { sessionId: sid(ctx), modelId });
  if (!others.length) {
    const same = await call(current);
    ctx.push(row(`${SET_MODEL} (removed from the spec) to the current model`, SET_MODEL, same, keys), [
      ctx.sessionCheck(R.setModel, "skip", `only one model listed (${current}); ${answerOf(same)}`, framesOf(same)),
    ]);
    return;
  }
  const r = await switchAndBack(ctx, current, others, call);
  const detail = [
    ...refusals(r.refused),
    ...(r.to ? [`${current} → ${r.to} → ${current}: ${answerOf(r.back!)}`] : []),
  ].join(", ");
  const shown = r.there ?? r.refused.at(-1)!.reply;
  ctx.push(
    {
      ...row(`${SET_MODEL} (removed from the spec) to another model and back`, SET_MODEL, shown, keys),
      detail: detail.slice(0, 300),
    },
    [
      ctx.sessionCheck(R.setModel, "pass", detail, [
        ...(r.there ? framesOf(r.there) : []),
        ...(r.back ? framesOf(r.back) : []),
      ]),
    ],
  );
}

export async function setConfigOption(ctx: ProbeContext) {
  const method = AGENT_METHODS.session_set_config_option;
  const options = configOptionsOf(ctx);
  if (!options.length) {
    ctx.push({ check: method, method, outcome: "not applicable", detail: "the agent listed no config options" });
    return;
  }
  const target = options.find((o) => o.type !== "boolean" && selectValues(o).some((v) => v !== o.currentValue));
  if (!target) {
    ctx.push({ check: method, method, outcome: "not applicable", detail: "no select option with another value" }, [
      ctx.sessionCheck(R.configSwitch, "skip", "no select option with another value"),
    ]);
    return;
  }
  const configId = String(target.id);
  const current = String(target.currentValue);
  const others = selectValues(target).filter((v) => v !== current);
  const call = (value: string) => ctx.request(method, paramsFor(ctx, method, { sessionId: sid(ctx), configId, value }));
  const r = await switchAndBack(ctx, current, others, call);
  let status: "pass" | "fail" = "fail";
  const notes = refusals(r.refused);
  if (r.there) {
    const list = (
      Array.isArray(resultOf(r.there.frame)?.configOptions) ? resultOf(r.there.frame)!.configOptions : []
    ) as unknown[];
    const answered = list.filter(isObject);
    const missing = options.map((o) => String(o.id)).filter((id) => !answered.some((o) => o.id === id));
    const applied = answered.find((o) => o.id === configId)?.currentValue === r.to;
    const backOk = !!r.back?.frame && !errorOf(r.back.frame);
    status = !missing.length && applied && backOk ? "pass" : "fail";
    notes.push(
      `${configId}: ${current} → ${r.to}`,
      missing.length ? `answer lacks ${missing.join(", ")}` : "complete list answered",
      applied ? "new value applied" : "new value not in the answer",
      `back ${backOk ? "accepted" : answerOf(r.back!)}`,
    );
  }
  const detail = notes.join(", ");
  const shown = r.there ?? r.refused.at(-1)!.reply;
  ctx.push({ ...row(`${method} to another value and back`, method, shown, keys), detail: detail.slice(0, 300) }, [
    ctx.sessionCheck(R.configSwitch, status, detail, [
      ...r.refused.flatMap((x) => framesOf(x.reply)),
      ...(r.there ? framesOf(r.there) : []),
      ...(r.back ? framesOf(r.back) : []),
    ]),
  ]);
}
