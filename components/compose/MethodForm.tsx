"use client";
/**
 * The form of one agent method, generated from its schema definition and
 * prefilled from what the agent said; validated as it is edited. Edits are
 * kept per method (and per tab); until the user edits, the form follows the
 * agent (a new session id, new modes). "Reset" goes back to following it.
 */
import { useMemo } from "react";
import {
  capabilityNotes,
  composeWarnings,
  methodSupport,
  prefillParams,
  suggestionsFor,
  variantNote,
  type MethodSpec,
} from "@/lib/features/compose-catalog";
import { buildForm } from "@/lib/features/schema-form";
import { useSession, useTabState } from "../state/use-session";
import { FrameSender } from "./FrameSender";
import { SupportLine } from "./MethodPicker";
import { SchemaForm } from "./form/SchemaForm";
import type { FormEnv } from "./form/form-env";
import { button } from "./ui";
import type { AcpSchema } from "./use-acp-schema";

export function MethodForm({
  spec,
  schema,
  onToRaw,
}: {
  spec: MethodSpec;
  schema: AcpSchema;
  onToRaw: (text: string) => void;
}) {
  const facts = useSession((s) => s.facts);
  const policies = useSession((s) => s.policies);
  const roots = useSession((s) => s.info?.workspaceRoots);
  const agentCwd = useSession((s) => (s.agent.state === "running" ? s.agent.agent.cwd : undefined));
  const [edits, setEdits] = useTabState<Record<string, unknown>>("compose.edits", {});
  const node = useMemo(() => buildForm(schema.defs, spec.def), [schema, spec.def]);
  const cwd = roots?.[0] ?? agentCwd ?? "/";
  // v2's definitions share names with v1's (PromptRequest) but not shapes: their edits are kept apart.
  const key = `${schema.protocolVersion === 1 ? "" : `v${schema.protocolVersion}:`}${spec.def}:${spec.method}`;
  const prefill = useMemo(
    () => prefillParams(spec.method, node, facts, { cwd, protocolVersion: schema.protocolVersion }),
    [spec.method, node, facts, cwd, schema.protocolVersion],
  );
  const edited = key in edits;
  const params = edited ? edits[key] : prefill;
  const issues = useMemo(() => schema.checker.validate(spec.def, params, "params"), [schema, spec.def, params]);
  const warnings = useMemo(
    () => composeWarnings(spec.method, params, facts, policies),
    [spec.method, params, facts, policies],
  );
  const env: FormEnv = {
    root: "params",
    issues,
    warnings,
    suggest: (path) => suggestionsFor(spec.method, path, params, facts, roots ?? []),
    variantNote: (variant, path) => variantNote(spec.method, path, variant.tagValue, facts),
  };
  return (
    <div className="flex flex-col gap-2" data-testid="method-form" data-method={spec.method}>
      <div className="flex items-center gap-2">
        <h3 className="font-mono text-xs text-sky-200">{spec.method}</h3>
        <span className="text-[11px] text-zinc-500">
          {spec.def}
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
      <SupportLine method={spec.method} support={methodSupport(spec.method, facts)} />
      {capabilityNotes(spec.method, facts).map((note) => (
        <p key={note} data-testid="capability-note" className="break-all font-mono text-[11px] text-zinc-500">
          {note}
        </p>
      ))}
      {node.description ? (
        <p className="line-clamp-2 text-[11px] text-zinc-500" title={node.description}>
          {node.description.split("\n")[0]}
        </p>
      ) : null}
      <div className="rounded border border-zinc-800 p-2">
        <SchemaForm node={node} value={params} set={(v) => setEdits({ ...edits, [key]: v })} env={env} />
      </div>
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
