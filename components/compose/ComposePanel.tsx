"use client";
/**
 * The "Compose" tab: every method a client sends, as a form generated from the schema of the
 * agent's protocol (the ACP SDK's, or the app-server's of the pinned Codex), plus a custom one.
 */
import { specOf } from "@/lib/features/protocols/registry";
import { negotiatedVersion } from "@/lib/folds/agent-facts";
import { selectProtocol } from "../state/session-store";
import { useSession, useTabState } from "../state/use-session";
import { CustomMethodForm } from "./CustomMethodForm";
import { MethodForm } from "./MethodForm";
import { CUSTOM, MethodPicker } from "./MethodPicker";
import { useComposeSchema } from "./use-compose-schema";
import { AGENT_METHODS } from "@/lib/protocol/methods";
import { descriptorOf } from "@/lib/protocol/protocols";

export function ComposePanel({ onToRaw }: { onToRaw: (text: string) => void }) {
  const [unstable, setUnstable] = useTabState("compose.unstable", false);
  const [chosen, setChosen] = useTabState<string>("compose.method", AGENT_METHODS.initialize);
  const facts = useSession((s) => s.facts);
  const protocol = useSession(selectProtocol);
  // Judged by ACP's schema (the protocol's descriptor says): the SDK's stable and unstable surfaces, and
  // the v2 draft's forms once the agent answered initialize with protocol version 2.
  const acp = descriptorOf(protocol).schema === "acpSdk";
  const version = acp && negotiatedVersion(facts) === 2 ? 2 : 1;
  const schema = useComposeSchema(protocol, unstable, version);
  const methods = schema?.specs ?? [];
  const spec = methods.find((m) => m.method === chosen);
  const rules = specOf(protocol).compose;

  return (
    <section className="flex flex-col gap-2 p-3" aria-label="Compose" data-testid="compose-panel">
      <div className="flex items-center gap-2">
        <p
          className="text-[11px] text-zinc-500"
          data-testid="compose-schema"
          data-version={version}
          data-protocol={protocol}
        >
          Forms generated from {schema?.source ?? "the schema"}
          {version === 2 ? <span className="text-fuchsia-300"> (v2 draft: the agent negotiated version 2)</span> : null}
          .
        </p>
        {/* Only ACP's SDK has an unstable surface. */}
        {acp ? (
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
        ) : null}
      </div>
      {!schema ? (
        <p className="text-xs text-zinc-500">Loading the schema…</p>
      ) : (
        <>
          <MethodPicker
            methods={methods}
            support={(m) => rules.support(m, facts)}
            chosen={chosen}
            onChoose={setChosen}
          />
          {chosen === CUSTOM ? (
            <CustomMethodForm schema={schema} onToRaw={onToRaw} />
          ) : spec ? (
            <MethodForm
              key={`${protocol}:${version}:${unstable}:${spec.method}`}
              spec={spec}
              schema={schema}
              onToRaw={onToRaw}
            />
          ) : (
            <p className="text-xs text-zinc-500">
              {acp
                ? `${chosen} is only in the unstable surface: tick "unstable".`
                : `${chosen} is not a method of this protocol: choose one above.`}
            </p>
          )}
        </>
      )}
    </section>
  );
}
