"use client";
/** A list: add (one button per variant for unions), remove, reorder; a multi-select for enum items. */
import { initialValue, pathString, type ArrayNode } from "@/lib/features/compose/schema-form";
import { button } from "../ui";
import { FieldEditor } from "./FieldEditor";
import { FieldIssues } from "./FieldIssues";
import { useFormEnv, type EditorProps } from "./form-env";

export function ArrayEditor({ node, value, path, set }: EditorProps<ArrayNode>) {
  const env = useFormEnv();
  const items: unknown[] = Array.isArray(value) ? (value as unknown[]) : [];
  const { items: itemNode } = node;

  if (itemNode.kind === "string" && itemNode.enum) {
    const chosen = new Set(items);
    return (
      <div className="flex flex-wrap gap-3" data-path={pathString(path, env.root)}>
        {itemNode.enum.map((v, i) => (
          <label key={v} className="flex items-center gap-1 text-xs text-zinc-300">
            <input
              type="checkbox"
              className="accent-sky-500"
              checked={chosen.has(v)}
              onChange={(e) => set(e.target.checked ? [...items, v] : items.filter((x) => x !== v))}
            />
            {itemNode.enumLabels?.[i] ?? v}
          </label>
        ))}
      </div>
    );
  }

  const replace = (i: number, v: unknown) => set(items.map((x, j) => (j === i ? v : x)));
  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length) return;
    const next = [...items];
    const [it] = next.splice(from, 1);
    next.splice(to, 0, it);
    set(next);
  };
  const adders =
    itemNode.kind === "union"
      ? itemNode.variants.map((variant) => ({
          label: variant.label,
          value: () => initialValue(variant.node),
          note: env.variantNote?.(variant, [...path, items.length]),
        }))
      : [
          {
            label: itemNode.refs?.at(-1) ?? (itemNode.kind === "object" ? "item" : itemNode.kind),
            value: () => initialValue(itemNode),
            note: undefined,
          },
        ];

  return (
    <div className="flex flex-col gap-1.5" data-testid="form-array" data-path={pathString(path, env.root)}>
      {items.map((item, i) => (
        <div
          key={i}
          data-testid="array-item"
          className="flex flex-col gap-1 rounded border border-zinc-800 bg-zinc-950/40 p-1.5"
        >
          <div className="flex items-center gap-1">
            <span className="font-mono text-[11px] text-zinc-500">[{i}]</span>
            <span className="ml-auto flex gap-1">
              <button
                type="button"
                className={button}
                disabled={i === 0}
                onClick={() => move(i, i - 1)}
                title="move up"
              >
                ↑
              </button>
              <button
                type="button"
                className={button}
                disabled={i === items.length - 1}
                onClick={() => move(i, i + 1)}
                title="move down"
              >
                ↓
              </button>
              <button
                type="button"
                data-testid="array-remove"
                className={button}
                onClick={() => set(items.filter((_, j) => j !== i))}
                title="remove"
              >
                ×
              </button>
            </span>
          </div>
          <FieldEditor node={itemNode} value={item} path={[...path, i]} set={(v) => replace(i, v)} />
          <FieldIssues path={[...path, i]} />
        </div>
      ))}
      <div className="flex flex-wrap gap-1">
        {adders.map((a) => (
          <button
            key={a.label}
            type="button"
            data-testid="array-add"
            data-variant={a.label}
            className={`${button} border-dashed ${a.note ? "opacity-50" : ""}`}
            title={a.note ?? `add ${a.label}`}
            onClick={() => set([...items, a.value()])}
          >
            + {a.label}
          </button>
        ))}
      </div>
    </div>
  );
}
