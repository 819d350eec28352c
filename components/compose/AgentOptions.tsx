"use client";
/**
 * Start options of the chosen profile (relay:info lists their names): for
 * Gemini the model, approval mode and workspace trust, plus a sandbox box that
 * stays off (it breaks ACP's stdio). Any option set bypasses the warm pool.
 */
import { isGeminiProfile, optionControls, SANDBOX_WARNING, type OptionValues } from "@/lib/contracts/agent-options";
import type { ProfileSummary } from "@/lib/contracts/wire";
import { input } from "./ui";

interface Props {
  profile: ProfileSummary | undefined;
  values: OptionValues;
  onChange: (values: OptionValues) => void;
  disabled: boolean;
}

export function AgentOptions({ profile, values, onChange, disabled }: Props) {
  const controls = optionControls(profile);
  if (controls.length === 0) return null;
  const set = (name: string, v: string | boolean) => onChange({ ...values, [name]: v });
  return (
    <fieldset
      className="flex flex-col gap-1.5 rounded border border-zinc-800 px-2 py-1.5"
      disabled={disabled}
      data-testid="agent-options"
    >
      <legend className="px-1 text-[11px] text-zinc-500">start options</legend>
      {controls.map((c) => (
        <label key={c.name} className="flex items-center gap-2 text-xs text-zinc-400">
          {c.kind === "checkbox" ? (
            <>
              <input
                data-testid={`option-${c.name}`}
                type="checkbox"
                className="accent-sky-500"
                checked={values[c.name] === true}
                onChange={(e) => set(c.name, e.target.checked)}
              />
              <span>{c.label}</span>
            </>
          ) : (
            <>
              <span className="w-24 shrink-0">{c.label}</span>
              {c.kind === "select" ? (
                <select
                  data-testid={`option-${c.name}`}
                  className={input}
                  value={String(values[c.name] ?? "")}
                  onChange={(e) => set(c.name, e.target.value)}
                >
                  <option value="">(default)</option>
                  {c.values.map((v) => (
                    <option key={v} value={v}>
                      {v}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  data-testid={`option-${c.name}`}
                  className={`${input} font-mono`}
                  value={String(values[c.name] ?? "")}
                  placeholder={c.kind === "text" ? c.placeholder : undefined}
                  onChange={(e) => set(c.name, e.target.value)}
                  spellCheck={false}
                />
              )}
            </>
          )}
        </label>
      ))}
      {isGeminiProfile(profile) ? (
        <label className="flex items-center gap-2 text-xs text-zinc-500" title={SANDBOX_WARNING}>
          <input data-testid="option-sandbox" type="checkbox" disabled checked={false} readOnly />
          <span>sandbox</span>
          <span className="text-[11px] text-amber-300/80">{SANDBOX_WARNING}</span>
        </label>
      ) : null}
    </fieldset>
  );
}
