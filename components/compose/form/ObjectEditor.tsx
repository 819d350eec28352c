"use client";
/**
 * An object's fields: required ones always, optional ones once added (a "+"
 * chip each), optional booleans as checkboxes straight away (capabilities are
 * toggles). Nullable fields can be set to null. Content with a file (image,
 * audio, blob) gets a file picker.
 */
import {
  initialValue,
  pathString,
  type FieldNode,
  type ObjectField,
  type ObjectNode,
  type Path,
} from "@/lib/features/compose/schema-form";
import { button } from "../ui";
import { FieldEditor } from "./FieldEditor";
import { FieldIssues } from "./FieldIssues";
import { FilePicker } from "./FilePicker";
import { useFormEnv, type EditorProps } from "./form-env";
import { isObject } from "@/lib/protocol/json";

/** A one-line summary of a node's description, for the label's tooltip. */
const tip = (node: FieldNode) => node.description ?? node.title ?? undefined;

/** Nested objects and lists get a frame; scalars sit beside their label. */
const isBlock = (node: FieldNode) =>
  node.kind === "object" || node.kind === "array" || node.kind === "union" || node.kind === "json";

export function ObjectEditor({ node, value, path, set, tagToHide }: EditorProps<ObjectNode> & { tagToHide?: string }) {
  const env = useFormEnv();
  const obj = isObject(value) ? value : {};
  const setField = (name: string, v: unknown) => set({ ...obj, [name]: v });
  const unset = (name: string) => {
    const { [name]: _gone, ...rest } = obj;
    set(rest);
  };
  const shown = node.fields.filter(
    (f) => f.name !== tagToHide && (f.required || f.name in obj || f.node.kind === "boolean"),
  );
  const addable = node.fields.filter(
    (f) => f.name !== tagToHide && !f.required && !(f.name in obj) && f.node.kind !== "boolean",
  );
  const extra = Object.keys(obj).filter((k) => !node.fields.some((f) => f.name === k));
  return (
    <div className="flex flex-col gap-1.5" data-testid="form-object" data-path={pathString(path, env.root)}>
      <FilePicker refs={node.refs ?? []} value={obj} set={set} />
      {shown.map((f) => (
        <FieldRow
          key={f.name}
          field={f}
          value={obj[f.name]}
          present={f.name in obj}
          path={[...path, f.name]}
          set={(v) => setField(f.name, v)}
          unset={() => unset(f.name)}
        />
      ))}
      {extra.length ? (
        <p className="text-[11px] text-zinc-500">
          also: {extra.join(", ")} (not in the schema; edit them in the raw editor)
        </p>
      ) : null}
      {addable.length ? (
        <div className="flex flex-wrap gap-1">
          {addable.map((f) => (
            <button
              key={f.name}
              type="button"
              data-testid="field-add"
              data-path={pathString([...path, f.name], env.root)}
              className={`${button} border-dashed`}
              title={tip(f.node)}
              onClick={() => setField(f.name, initialValue(f.node))}
            >
              + {f.name}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}

interface RowProps {
  field: ObjectField;
  value: unknown;
  present: boolean;
  path: Path;
  set: (v: unknown) => void;
  unset: () => void;
}

function FieldRow({ field, value, present, path, set, unset }: RowProps) {
  const env = useFormEnv();
  const { node, name, required } = field;
  const at = pathString(path, env.root);
  const label = (
    <span className={`shrink-0 font-mono text-[11px] ${present ? "text-zinc-300" : "text-zinc-500"}`} title={tip(node)}>
      {name}
      {required ? <span className="text-red-400">*</span> : null}
    </span>
  );
  const tools = (
    <span className="ml-auto flex shrink-0 gap-1">
      {node.nullable && present && value !== null ? (
        <button type="button" className={button} title="set to null" onClick={() => set(null)}>
          null
        </button>
      ) : null}
      {!required && present ? (
        <button
          type="button"
          data-testid="field-remove"
          className={button}
          title="leave this field out"
          onClick={unset}
        >
          ×
        </button>
      ) : null}
    </span>
  );
  const editor =
    value === null && node.kind !== "json" ? (
      <span className="flex items-center gap-2 text-xs text-zinc-500">
        null
        <button type="button" className={button} onClick={() => set(initialValue(node))}>
          set a value
        </button>
      </span>
    ) : (
      <FieldEditor node={node} value={value} path={path} set={set} name={name} />
    );
  return (
    <div data-testid="form-field" data-path={at} data-present={present} className="flex flex-col gap-0.5">
      {isBlock(node) && value !== null ? (
        <>
          <div className="flex items-center gap-2">
            {label}
            {tools}
          </div>
          <div className="border-l border-zinc-800 pl-2">{editor}</div>
        </>
      ) : (
        <div className="flex items-center gap-2">
          {label}
          <div className="min-w-0 flex-1">{editor}</div>
          {tools}
        </div>
      )}
      <FieldIssues path={path} />
    </div>
  );
}
