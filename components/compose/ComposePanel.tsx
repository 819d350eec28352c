"use client";
/** The "Compose" tab: every agent method as a form generated from the SDK schema, plus a custom one. */
import { useMemo } from "react";
import { composeMethods, methodSupport } from "@/lib/features/compose-catalog";
import { negotiatedVersion } from "@/lib/folds/agent-facts";
import { useSession, useTabState } from "../state/use-session";
import { CustomMethodForm } from "./CustomMethodForm";
import { MethodForm } from "./MethodForm";
import { CUSTOM, MethodPicker } from "./MethodPicker";
import { useAcpSchema } from "./use-acp-schema";
import { AGENT_METHODS } from "@/lib/protocol/methods";

export function ComposePanel({ onToRaw }: { onToRaw: (text: string) => void }) {
  const [unstable, setUnstable] = useTabState("compose.unstable", false);
  const [chosen, setChosen] = useTabState<string>("compose.method", AGENT_METHODS.initialize);
  const facts = useSession((s) => s.facts);
  // The v2 draft's forms once the agent answered initialize with protocol version 2.
  const version = negotiatedVersion(facts) === 2 ? 2 : 1;
  const schema = useAcpSchema(unstable, version);
  const methods = useMemo(
    () => (schema ? composeMethods(schema.defs, schema.methods, schema.stableMethods) : []),
    [schema],
  );
  const spec = methods.find((m) => m.method === chosen);

  return (
    <section className="flex flex-col gap-2 p-3" aria-label="Compose" data-testid="compose-panel">
      <div className="flex items-center gap-2">
        <p className="text-[11px] text-zinc-500" data-testid="compose-schema" data-version={version}>
          Forms generated from the ACP SDK&apos;s JSON Schema
          {version === 2 ? <span className="text-fuchsia-300"> (v2 draft: the agent negotiated version 2)</span> : null}
          .
        </p>
        <label
          className="ml-auto flex items-center gap-1 text-[11px] text-zinc-400"
          title="Show the SDK's unstable methods and fields"
        >
          <input
            data-testid="compose-unstable"
            type="checkbox"
            className="accent-fuchsia-400"
            checked={unstable}
            onChange={(e) => setUnstable(e.target.checked)}
          />
          unstable
        </label>
      </div>
      {!schema ? (
        <p className="text-xs text-zinc-500">Loading the ACP schema…</p>
      ) : (
        <>
          <MethodPicker
            methods={methods}
            support={(m) => methodSupport(m, facts)}
            chosen={chosen}
            onChoose={setChosen}
          />
          {chosen === CUSTOM ? (
            <CustomMethodForm schema={schema} onToRaw={onToRaw} />
          ) : spec ? (
            <MethodForm key={`${version}:${unstable}:${spec.method}`} spec={spec} schema={schema} onToRaw={onToRaw} />
          ) : (
            <p className="text-xs text-zinc-500">
              {chosen} is only in the unstable surface: tick &quot;unstable&quot;.
            </p>
          )}
        </>
      )}
    </section>
  );
}
