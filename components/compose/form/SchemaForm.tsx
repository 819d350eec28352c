"use client";
/** A form generated from a schema field tree, editing one JSON value. */
import type { FieldNode } from "@/lib/features/compose/schema-form";
import { FieldEditor } from "./FieldEditor";
import { FormEnvContext, type FormEnv } from "./form-env";

export function SchemaForm({
  node,
  value,
  set,
  env,
}: {
  node: FieldNode;
  value: unknown;
  set: (v: unknown) => void;
  env: FormEnv;
}) {
  return (
    <FormEnvContext.Provider value={env}>
      <FieldEditor node={node} value={value} path={[]} set={set} />
    </FormEnvContext.Provider>
  );
}
