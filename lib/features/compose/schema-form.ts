/**
 * Forms generated from JSON Schema: the ACP SDK's schema.json (one form per
 * request definition), the app-server's (lib/protocol/app-server-schema.json:
 * one per params definition) or an elicitation's `requestedSchema`. Pure: builds a
 * field tree from a schema, makes initial values, picks and switches union
 * variants, and edits values immutably by path. The form's value is plain
 * JSON and stays the single source of truth; the tree only says how to edit it.
 *
 * Resolves what the ACP schema uses: `$ref` into `$defs`, `allOf` (merged),
 * `anyOf`/`oneOf` (a `null` alternative makes a field nullable, the rest become
 * union variants, each merged with the surrounding object), `const`, `enum`,
 * string `oneOf` of consts (labelled enums), arrays, and anything else as free
 * JSON (`_meta`, `rawInput`, maps). Validation is schema-check's job.
 */
import { createSchemaChecker, type SchemaIssue } from "../../protocol/schema-check";
import { display, isObject, num, str } from "../../protocol/json";

export type Schema = boolean | { [keyword: string]: unknown };
export type Defs = Record<string, Schema>;

interface NodeBase {
  title?: string;
  description?: string;
  /** null is an accepted value. */
  nullable?: boolean;
  default?: unknown;
  /** `$defs` this node was built from, outermost first (widgets key on them, e.g. ImageContent). */
  refs?: string[];
}

export interface StringNode extends NodeBase {
  kind: "string";
  enum?: string[];
  /** Labels for `enum`, same order (from `oneOf: [{const, title}]`). */
  enumLabels?: string[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
}
export interface NumberNode extends NodeBase {
  kind: "number";
  integer: boolean;
  minimum?: number;
  maximum?: number;
}
export interface BooleanNode extends NodeBase {
  kind: "boolean";
}
export interface ConstNode extends NodeBase {
  kind: "const";
  value: unknown;
}
export interface ObjectField {
  name: string;
  required: boolean;
  node: FieldNode;
}
export interface ObjectNode extends NodeBase {
  kind: "object";
  fields: ObjectField[];
}
export interface ArrayNode extends NodeBase {
  kind: "array";
  items: FieldNode;
  minItems?: number;
  maxItems?: number;
}
export interface Variant {
  label: string;
  node: FieldNode;
  /** The value of the union's tag property that selects this variant, if it has one. */
  tagValue?: unknown;
}
export interface UnionNode extends NodeBase {
  kind: "union";
  variants: Variant[];
  /** Property that tells object variants apart (`type`, `outcome`, `mode`...). */
  tag?: string;
}
export interface JsonNode extends NodeBase {
  kind: "json";
}

export type FieldNode =
  StringNode | NumberNode | BooleanNode | ConstNode | ObjectNode | ArrayNode | UnionNode | JsonNode;

const MAX_DEPTH = 14;

/** A schema with $ref and allOf folded in; anyOf/oneOf kept as groups still to expand. */
interface Flat {
  types?: string[];
  nullable: boolean;
  props: Map<string, Schema[]>;
  required: Set<string>;
  groups: { alts: Schema[]; discriminator?: string }[];
  constValue?: { value: unknown };
  enumValues?: unknown[];
  items: Schema[];
  additional?: Schema;
  refs: string[];
  /** Refs expanded by ancestor fields: meeting one again is a cycle. */
  stack: string[];
  cyclic: boolean;
  title?: string;
  description?: string;
  default?: unknown;
  hasDefault: boolean;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

const emptyFlat = (stack: string[]): Flat => ({
  nullable: false,
  props: new Map(),
  required: new Set(),
  groups: [],
  items: [],
  refs: [],
  stack,
  cyclic: false,
  hasDefault: false,
});

function cloneFlat(f: Flat): Flat {
  return {
    ...f,
    types: f.types ? [...f.types] : undefined,
    props: new Map([...f.props].map(([k, v]) => [k, [...v]])),
    required: new Set(f.required),
    groups: [...f.groups],
    items: [...f.items],
    refs: [...f.refs],
    stack: [...f.stack],
  };
}

class Builder {
  constructor(private readonly defs: Defs) {}

  /** Folds a schema's own keywords, then its $ref and allOf, into `into` (outer keywords win). */
  private fold(schema: Schema, into: Flat, depth = 0): void {
    if (schema === true || schema === false) return;
    if (depth > MAX_DEPTH) {
      into.cyclic = true;
      return;
    }
    const s = schema;
    into.title ??= str(s.title);
    into.description ??= str(s.description);
    if ("default" in s && !into.hasDefault) {
      into.default = s.default;
      into.hasDefault = true;
    }
    into.format ??= str(s.format);
    into.pattern ??= str(s.pattern);
    into.minimum ??= num(s.minimum);
    into.maximum ??= num(s.maximum);
    into.minLength ??= num(s.minLength);
    into.maxLength ??= num(s.maxLength);
    into.minItems ??= num(s.minItems);
    into.maxItems ??= num(s.maxItems);
    if (s.type !== undefined) {
      const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === "string");
      if (types.includes("null")) into.nullable = true;
      const real = types.filter((t) => t !== "null");
      if (types.length > 0) into.types = into.types ? intersectTypes(into.types, real) : real;
    }
    if ("const" in s && !into.constValue) into.constValue = { value: s.const };
    if (Array.isArray(s.enum) && !into.enumValues) {
      if (s.enum.includes(null)) into.nullable = true;
      into.enumValues = s.enum.filter((e) => e !== null);
    }
    if (isObject(s.properties)) {
      for (const [k, v] of Object.entries(s.properties)) {
        const list = into.props.get(k) ?? [];
        list.push(v as Schema);
        into.props.set(k, list);
      }
    }
    if (Array.isArray(s.required)) for (const k of s.required) if (typeof k === "string") into.required.add(k);
    if (s.items !== undefined && typeof s.items !== "boolean") into.items.push(s.items as Schema);
    if (s.additionalProperties !== undefined) into.additional ??= s.additionalProperties as Schema;
    if (typeof s.$ref === "string") {
      const name = /^#\/\$defs\/(.+)$/.exec(s.$ref)?.[1];
      const def = name !== undefined ? this.defs[name] : undefined;
      // A definition already being expanded by an ancestor field: a cycle, edited as JSON.
      if (name === undefined || def === undefined || into.stack.includes(name)) into.cyclic = true;
      else {
        into.refs.push(name);
        this.fold(def, into, depth + 1);
      }
    }
    if (Array.isArray(s.allOf)) for (const sub of s.allOf) this.fold(sub as Schema, into, depth + 1);
    for (const key of ["anyOf", "oneOf"] as const) {
      if (!Array.isArray(s[key])) continue;
      const alts = (s[key] as Schema[]).filter((alt) => {
        const isNull =
          isObject(alt) &&
          alt.type === "null" &&
          Object.keys(alt).every((k) => k === "type" || k === "description" || k === "title");
        if (isNull) into.nullable = true;
        return !isNull;
      });
      if (alts.length === 1) this.fold(alts[0]!, into, depth + 1);
      else if (alts.length > 1) {
        const d = isObject(s.discriminator) ? str(s.discriminator.propertyName) : undefined;
        into.groups.push({ alts, discriminator: d });
      }
    }
  }

  flatten(schema: Schema, stack: string[]): Flat {
    const f = emptyFlat([...stack]);
    this.fold(schema, f);
    return f;
  }

  node(schema: Schema, stack: string[], depth: number): FieldNode {
    return this.fromFlat(this.flatten(schema, stack), depth);
  }

  private base(f: Flat): NodeBase {
    const b: NodeBase = {};
    if (f.title !== undefined) b.title = f.title;
    if (f.description !== undefined) b.description = f.description;
    if (f.nullable) b.nullable = true;
    if (f.hasDefault) b.default = f.default;
    if (f.refs.length) b.refs = f.refs;
    return b;
  }

  fromFlat(f: Flat, depth: number): FieldNode {
    const base = this.base(f);
    if (f.cyclic || depth > MAX_DEPTH) return { ...base, kind: "json" };
    if (f.groups.length > 0) return this.union(f, depth);
    if (f.constValue) return { ...base, kind: "const", value: f.constValue.value };
    // A one-value enum is a const (Codex's schema tags its variants so): it makes the union's tag.
    if (f.enumValues?.length === 1 && !f.nullable) return { ...base, kind: "const", value: f.enumValues[0] };
    if (f.enumValues) {
      return f.enumValues.every((e) => typeof e === "string")
        ? { ...base, kind: "string", enum: f.enumValues }
        : { ...base, kind: "json" };
    }
    const types = f.types ?? (f.props.size > 0 ? ["object"] : f.items.length ? ["array"] : []);
    if (types.length !== 1) return { ...base, kind: "json" };
    switch (types[0]) {
      case "string":
        return stripUndefined({
          ...base,
          kind: "string" as const,
          format: f.format,
          pattern: f.pattern,
          minLength: f.minLength,
          maxLength: f.maxLength,
        });
      case "integer":
      case "number":
        return stripUndefined({
          ...base,
          kind: "number" as const,
          integer: types[0] === "integer",
          minimum: f.minimum,
          maximum: f.maximum,
        });
      case "boolean":
        return { ...base, kind: "boolean" };
      case "array": {
        const items = f.items.length
          ? this.fromFlat(this.merged(f.items, childStack(f)), depth + 1)
          : ({ kind: "json" } as JsonNode);
        return stripUndefined({ ...base, kind: "array" as const, items, minItems: f.minItems, maxItems: f.maxItems });
      }
      case "object": {
        // A map (only additionalProperties) is edited as JSON.
        if (f.props.size === 0 && f.additional !== undefined && f.additional !== false)
          return { ...base, kind: "json" };
        const fields: ObjectField[] = [...f.props].map(([name, schemas]) => ({
          name,
          required: f.required.has(name),
          node: this.fromFlat(this.merged(schemas, childStack(f)), depth + 1),
        }));
        // _meta is rarely wanted: always last.
        fields.sort((a, b) => Number(a.name === "_meta") - Number(b.name === "_meta"));
        return { ...base, kind: "object", fields };
      }
      default:
        return { ...base, kind: "json" };
    }
  }

  private merged(schemas: Schema[], stack: string[]): Flat {
    const f = emptyFlat([...stack]);
    for (const s of schemas) this.fold(s, f);
    return f;
  }

  private union(f: Flat, depth: number): FieldNode {
    const [group, ...rest] = f.groups;
    const { alts, discriminator } = group!;
    const base = this.base(f);
    // `oneOf: [{const: "a", title: "A"}, ...]` is a labelled enum (elicitation, Role).
    const consts = alts.map((a) => (isObject(a) && "const" in a && !a.properties ? a : undefined));
    if (consts.every((c) => c && typeof c.const === "string") && f.props.size === 0) {
      return {
        ...base,
        kind: "string",
        enum: consts.map((c) => c!.const as string),
        enumLabels: consts.map((c) => str(c!.title) ?? (c!.const as string)),
      };
    }
    const variants = alts.map((alt, i) => {
      const v = cloneFlat(f);
      v.groups = [...rest];
      // The alternative's own title/description describe the variant, not the union.
      v.title = undefined;
      v.description = undefined;
      v.hasDefault = false;
      v.default = undefined;
      v.nullable = false;
      this.fold(alt, v);
      const node = this.fromFlat(v, depth + 1);
      return { alt, node, i };
    });
    const tag = discriminator ?? detectTag(variants.map((v) => v.node));
    return {
      ...base,
      kind: "union",
      ...(tag ? { tag } : {}),
      variants: variants.map(({ alt, node, i }) => {
        const tagValue = tag ? constOf(node, tag) : undefined;
        const label =
          (tagValue !== undefined ? display(tagValue) : undefined) ??
          (isObject(alt) ? str(alt.title) : undefined) ??
          node.refs?.slice(f.refs.length).at(-1) ??
          (node.kind !== "object" && node.kind !== "union" ? node.kind : undefined) ??
          `variant ${i + 1}`;
        return tagValue !== undefined ? { label, node, tagValue } : { label, node };
      }),
    };
  }
}

const childStack = (f: Flat): string[] => [...f.stack, ...f.refs];

function stripUndefined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

function constOf(node: FieldNode, prop: string): unknown {
  if (node.kind !== "object") return undefined;
  const field = node.fields.find((f) => f.name === prop);
  return field?.node.kind === "const" ? field.node.value : undefined;
}

/** JSON Schema types both lists allow (an integer is a number). */
function intersectTypes(a: string[], b: string[]): string[] {
  const out = new Set<string>();
  for (const x of a) {
    for (const y of b) {
      if (x === y) out.add(x);
      else if ((x === "integer" && y === "number") || (x === "number" && y === "integer")) out.add("integer");
    }
  }
  return [...out];
}

/**
 * The property that tells object variants apart (`type`, `outcome`, `mode`):
 * a const with a different value in each variant that has it. Variants without
 * it (McpServer's stdio) are the "untagged" one.
 */
function detectTag(nodes: FieldNode[]): string | undefined {
  const values = new Map<string, unknown[]>();
  for (const n of nodes) {
    if (n.kind !== "object") continue;
    for (const f of n.fields) {
      if (f.node.kind !== "const") continue;
      values.set(f.name, [...(values.get(f.name) ?? []), JSON.stringify(f.node.value)]);
    }
  }
  let best: string | undefined;
  let bestCount = 0;
  for (const [name, list] of values) {
    if (new Set(list).size !== list.length) continue;
    if (list.length > bestCount) {
      best = name;
      bestCount = list.length;
    }
  }
  return best;
}

/** The field tree of a named definition, e.g. ("InitializeRequest"). */
export function buildForm(defs: Defs, defName: string): FieldNode {
  if (defs[defName] === undefined) throw new Error(`no such definition: ${defName}`);
  return new Builder(defs).node({ $ref: `#/$defs/${defName}` }, [], 0);
}

/** The field tree of a standalone schema (an elicitation's requestedSchema); $refs resolve against `defs`. */
export function buildFormFromSchema(schema: Schema, defs: Defs = {}): FieldNode {
  return new Builder(defs).node(schema, [], 0);
}

// ---------------------------------------------------------------------------
// Values

const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** A starting value: required fields filled, optional ones left out. */
export function initialValue(node: FieldNode): unknown {
  switch (node.kind) {
    case "string":
      return typeof node.default === "string" ? node.default : (node.enum?.[0] ?? "");
    case "number":
      return typeof node.default === "number" ? node.default : (node.minimum ?? 0);
    case "boolean":
      return typeof node.default === "boolean" ? node.default : false;
    case "const":
      return clone(node.value);
    case "array":
      return Array.isArray(node.default) ? clone(node.default) : [];
    case "object": {
      const out: Record<string, unknown> = {};
      for (const f of node.fields) if (f.required) out[f.name] = initialValue(f.node);
      return out;
    }
    case "union":
      return initialValue(node.variants[0]!.node);
    case "json":
      return node.default !== undefined ? clone(node.default) : {};
  }
}

function kindFits(node: FieldNode, v: unknown): boolean {
  switch (node.kind) {
    case "string":
      return typeof v === "string" && (!node.enum || node.enum.includes(v));
    case "number":
      return typeof v === "number";
    case "boolean":
      return typeof v === "boolean";
    case "const":
      return JSON.stringify(node.value) === JSON.stringify(v);
    case "array":
      return Array.isArray(v);
    case "object":
      return isObject(v);
    case "union":
      return node.variants.some((x) => kindFits(x.node, v));
    case "json":
      return true;
  }
}

/** Which variant a value is (by tag, else by shape); 0 when nothing fits. */
export function matchVariant(node: UnionNode, value: unknown): number {
  const { variants, tag } = node;
  if (tag && isObject(value)) {
    const t = value[tag];
    const byTag = variants.findIndex(
      (v) => v.tagValue !== undefined && JSON.stringify(v.tagValue) === JSON.stringify(t),
    );
    if (byTag >= 0) return byTag;
    // No tag (McpServer's stdio) or an unknown one ("other" variants): the variant without a const tag.
    const untagged = variants.map((v, i) => ({ v, i })).filter(({ v }) => v.tagValue === undefined);
    const open = untagged.find(({ v }) => {
      const field = v.node.kind === "object" ? v.node.fields.find((f) => f.name === tag) : undefined;
      return t === undefined ? !field || !field.required : !!field;
    });
    if (open) return open.i;
  }
  let best = -1;
  let bestScore = -1;
  variants.forEach((v, i) => {
    if (!kindFits(v.node, value)) return;
    let score = 0;
    if (v.node.kind === "object" && isObject(value)) {
      const names = new Set(v.node.fields.map((f) => f.name));
      if (v.node.fields.some((f) => f.required && !(f.name in value))) score -= 100;
      for (const k of Object.keys(value)) score += names.has(k) ? 1 : -1;
    }
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best < 0 ? 0 : best;
}

/** The value switched to another variant, keeping the fields both have. */
export function switchVariant(node: UnionNode, value: unknown, index: number): unknown {
  const target = node.variants[index];
  if (!target) return value;
  const next = initialValue(target.node);
  if (target.node.kind === "object" && isObject(value) && isObject(next)) {
    for (const f of target.node.fields) {
      if (f.name === node.tag || !(f.name in value)) continue;
      if (kindFits(f.node, value[f.name])) next[f.name] = value[f.name];
    }
  }
  return next;
}

export type Path = readonly (string | number)[];

export function getIn(value: unknown, path: Path): unknown {
  let v = value;
  for (const key of path) {
    if (typeof key === "number" ? !Array.isArray(v) : !isObject(v)) return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

/** A copy of `value` with `path` set to `x` (objects and arrays created on the way). */
export function setIn(value: unknown, path: Path, x: unknown): unknown {
  if (path.length === 0) return x;
  const [key, ...rest] = path;
  if (typeof key === "number") {
    const arr = Array.isArray(value) ? [...(value as unknown[])] : [];
    arr[key] = setIn(arr[key], rest, x);
    return arr;
  }
  const obj = isObject(value) ? { ...value } : {};
  obj[key!] = setIn(obj[key!], rest, x);
  return obj;
}

/** A copy of `value` without the key (or array item) at `path`. */
export function unsetIn(value: unknown, path: Path): unknown {
  if (path.length === 0) return undefined;
  const parentPath = path.slice(0, -1);
  const key = path[path.length - 1]!;
  const parent = getIn(value, parentPath);
  if (typeof key === "number") {
    if (!Array.isArray(parent)) return value;
    return setIn(
      value,
      parentPath,
      parent.filter((_, i) => i !== key),
    );
  }
  if (!isObject(parent) || !(key in parent)) return value;
  const { [key]: _removed, ...restObj } = parent;
  return setIn(value, parentPath, restObj);
}

/** Moves an array item at `path` (an array) from one index to another. */
export function moveIn(value: unknown, path: Path, from: number, to: number): unknown {
  const arr = getIn(value, path);
  if (!Array.isArray(arr) || to < 0 || to >= arr.length || from === to) return value;
  const next: unknown[] = [...(arr as unknown[])];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return setIn(value, path, next);
}

/** The path as schema-check writes it: `params.prompt[0].text`. */
export function pathString(path: Path, root = ""): string {
  let out = root;
  for (const key of path) out = typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${key}` : key;
  return out;
}

/** Issues about exactly this field. */
export function issuesAt(issues: readonly SchemaIssue[], path: string): SchemaIssue[] {
  return issues.filter((i) => i.path === path);
}

/** Validates a value against a standalone schema (an elicitation's requestedSchema). */
export function validateAgainst(schema: Schema, value: unknown, defs: Defs = {}): SchemaIssue[] {
  return createSchemaChecker({ $defs: { ...defs, __form: schema } }).validate("__form", value);
}
