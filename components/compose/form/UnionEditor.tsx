"use client";
/** One of several shapes: a select for the variant (by its tag), then that variant's fields. */
import { matchVariant, pathString, switchVariant, type UnionNode } from "@/lib/features/compose/schema-form";
import { input } from "../ui";
import { FieldEditor } from "./FieldEditor";
import { useFormEnv, type EditorProps } from "./form-env";
import { ObjectEditor } from "./ObjectEditor";

export function UnionEditor({ node, value, path, set }: EditorProps<UnionNode>) {
  const env = useFormEnv();
  const index = matchVariant(node, value);
  const variant = node.variants[index]!;
  const note = env.variantNote?.(variant, path);
  return (
    <div className="flex flex-col gap-1">
      <select
        data-testid="variant-select"
        data-path={pathString(path, env.root)}
        className={`${input} w-auto ${note ? "text-amber-300" : ""}`}
        value={index}
        onChange={(e) => set(switchVariant(node, value, Number(e.target.value)))}
        title={variant.node.description}
      >
        {node.variants.map((v, i) => {
          const n = env.variantNote?.(v, path);
          return (
            <option key={i} value={i}>
              {node.tag ? `${node.tag}: ` : ""}
              {v.label}
              {n ? ` — ${n}` : ""}
            </option>
          );
        })}
      </select>
      {variant.node.kind === "object" ? (
        <ObjectEditor
          node={variant.node}
          value={value}
          path={path}
          set={set}
          tagToHide={variant.tagValue !== undefined ? node.tag : undefined}
        />
      ) : (
        <FieldEditor node={variant.node} value={value} path={path} set={set} />
      )}
    </div>
  );
}
