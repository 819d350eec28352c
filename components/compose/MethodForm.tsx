"use client";
/**
 * The form of one agent method, generated from its schema definition and
 * prefilled from what the agent said (by the compose rules of the agent's
 * protocol spec, lib/features/protocols/); validated as it is edited.
 * Edits are kept per method (and per tab); until the user edits, the form
 * follows the agent (a new session id, new modes). "Reset" goes back to
 * following it. A method without params has no form.
 */
import { useMemo } from "react";
import { type MethodSpec } from "@/lib/features/compose/catalog";
import { buildForm } from "@/lib/features/compose/schema-form";
import { useProtocolState, useSession, useTabState } from "../state/use-session";
import { FrameSender } from "./FrameSender";
import { SupportLine } from "./MethodPicker";
import { SchemaForm } from "./form/SchemaForm";
import type { FormEnv } from "./form/form-env";
import { button } from "./ui";
import type { ComposeSchema } from "./use-compose-schema";

export function MethodForm({
  spec,
  schema,
  onToRaw,
}: {
  spec: MethodSpec;
  schema: ComposeSchema;
  onToRaw: (text: string) => void;
}) {
  const { spec: protocolSpec, state } = useProtocolState();
  const { facts } = state;
  const rules = protocolSpec.compose;
  const policies = useSession((s) => s.policies);
  const roots = useSession((s) => s.info?.workspaceRoots);
  const agentCwd = useSession((s) => (s.agent.state === "running" ? s.agent.agent.cwd : undefined));
  const [edits, setEdits] = useTabState<Record<string, unknown>>("compose.edits", {});
  const { def } = spec;
  const node = useMemo(() => (def ? buildForm(schema.defs, def) : undefined), [schema, def]);
  const cwd = roots?.[0] ?? agentCwd ?? "/";
  // v2's definitions share names with v1's (PromptRequest) but not shapes: their edits are kept apart.
  const key = `${schema.protocolVersion === 1 ? "" : `v${schema.protocolVersion}:`}${def ?? ""}:${spec.method}`;
  const prefill = useMemo(
    () =>
      node ? rules.prefill(spec.method, node, state, { cwd, protocolVersion: schema.protocolVersion }) : undefined,
    [rules, spec.method, node, state, cwd, schema.protocolVersion],
  );
  const edited = key in edits;
  const params = edited ? edits[key] : prefill;
  const issues = useMemo(() => (def ? schema.checker.validate(def, params, "params") : []), [schema, def, params]);
  const warnings = useMemo(
    () => rules.warnings(spec.method, params, facts, policies),
    [rules, spec.method, params, facts, policies],
  );
  const env: FormEnv = {
    root: "params",
    issues,
    warnings,
    suggest: (path) => rules.suggest(spec.method, path, params, state, roots ?? []),
    variantNote: (variant, path) => rules.variantNote(spec.method, path, variant.tagValue, facts),
  };
  return (
    <div className="flex flex-col gap-2" data-testid="method-form" data-method={spec.method}>
      <div className="flex items-center gap-2">
        <h3 className="font-mono text-xs text-sky-200">{spec.method}</h3>
        <span className="text-[11px] text-zinc-500">
          {def ?? "no params"}
          {spec.notification ? " · notification" : ""}
        </span>
        <button
          type="button"
          data-testid="compose-reset"
          className={`${button} ml-auto`}
          disabled={!edited}
          title="Back to the values prefilled from what the agent said"
          onClick={() => {
            const { [key]: _gone, ...rest } = edits;
            setEdits(rest);
          }}
        >
          Reset
        </button>
      </div>
      <SupportLine method={spec.method} support={rules.support(spec.method, facts)} />
      {rules.notes(spec.method, facts).map((note) => (
        <p key={note} data-testid="capability-note" className="break-all font-mono text-[11px] text-zinc-500">
          {note}
        </p>
      ))}
      {node?.description ? (
        <p className="line-clamp-2 text-[11px] text-zinc-500" title={node.description}>
          {node.description.split("\n")[0]}
        </p>
      ) : null}
      {node ? (
        <div className="rounded border border-zinc-800 p-2">
          <SchemaForm node={node} value={params} set={(v) => setEdits({ ...edits, [key]: v })} env={env} />
        </div>
      ) : (
        <p data-testid="no-params" className="text-[11px] text-zinc-500">
          This method takes no params.
        </p>
      )}
      <FrameSender
        method={spec.method}
        params={params}
        notification={spec.notification}
        issues={issues}
        warnings={warnings}
        onToRaw={onToRaw}
      />
    </div>
  );
}
