/**
 * Records declared once, as a table of fields: the TypeScript type is inferred
 * from the table, and the same table checks a value and copies a record's
 * fields. A light validator for what the browser reads too (transcripts,
 * frames): zod stays out of its bundle (lib/contracts/wire.ts's schemas are
 * the relay's).
 */
import type { JsonRpcId } from "@agentclientprotocol/sdk";

/** One field: how it is checked and what to say when it is wrong. */
export class Field<T, Optional extends boolean = false> {
  /** The field's type (for inference only; never set). */
  declare readonly type: T;

  constructor(
    private readonly test: (value: unknown) => boolean,
    /** What the value must be, after the field's name: "must be a string". */
    readonly must: string,
    readonly optional: Optional,
  ) {}

  /** The same field, allowed to be absent. */
  opt(): Field<T, true> {
    return new Field<T, true>(this.test, this.must, true);
  }

  /** The same check with another message. */
  says(must: string): Field<T, Optional> {
    return new Field<T, Optional>(this.test, must, this.optional);
  }

  /** The same field with a narrower type that is not checked (a newer 1.x file may say more). */
  as<U extends T>(): Field<U, Optional> {
    return this as unknown as Field<U, Optional>;
  }

  accepts(value: unknown): boolean {
    return (value === undefined && this.optional) || this.test(value);
  }
}

/** A field holding a record of its own shape: a wrong inner field is named by its path ("agent.args"). */
export class ObjectField<S extends Shape, Optional extends boolean = false> extends Field<Infer<S>, Optional> {
  constructor(
    readonly shape: S,
    optional: Optional,
  ) {
    super((v) => isRecord(v) && shapeIssue(shape, v) === undefined, "must be an object", optional);
  }

  override opt(): ObjectField<S, true> {
    return new ObjectField(this.shape, true);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const make = <T>(test: (value: unknown) => boolean, must: string) => new Field<T>(test, must, false);

export const field = {
  string: make<string>((v) => typeof v === "string", "must be a string"),
  number: make<number>((v) => typeof v === "number" && Number.isFinite(v), "must be a number"),
  int: make<number>((v) => Number.isInteger(v), "must be an integer"),
  /** A count (of redactions, of bytes): an integer from 0. */
  count: make<number>((v) => Number.isInteger(v) && (v as number) >= 0, "must be an integer from 0"),
  true: make<true>((v) => v === true, "must be true"),
  unknown: make<unknown>(() => true, ""),
  strings: make<string[]>((v) => Array.isArray(v) && v.every((s) => typeof s === "string"), "must be strings"),
  record: make<Record<string, unknown>>(isRecord, "must be an object"),
  object: <S extends Shape>(shape: S) => new ObjectField(shape, false),
  matching: (pattern: RegExp, must: string) => make<string>((v) => typeof v === "string" && pattern.test(v), must),
  id: make<JsonRpcId>(
    (v) => v === null || typeof v === "string" || (typeof v === "number" && Number.isFinite(v)),
    "must be a string, a number or null",
  ),
  oneOf: <const V extends string>(...values: V[]) =>
    make<V>((v) => (values as unknown[]).includes(v), `must be one of ${values.join(", ")}`),
  nullable: <T>(f: Field<T>) => make<T | null>((v) => v === null || f.accepts(v), `${f.must} or null`),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each field has a type of its own, read through its Field
export type Shape = Readonly<Record<string, Field<any, boolean>>>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The record a shape describes: its required fields, then its optional ones. */
export type Infer<S extends Shape> = Simplify<
  { -readonly [K in keyof S as S[K] extends Field<unknown, true> ? never : K]: S[K]["type"] } & {
    -readonly [K in keyof S as S[K] extends Field<unknown, true> ? K : never]?: S[K]["type"];
  }
>;

/** What is wrong with a value: the first field it lacks or gets wrong, by its path ("agent.args"). */
export interface ShapeIssue {
  path: string;
  /** The field is absent (`needs agent.args`), rather than of the wrong type (`agent.args must be strings`). */
  missing: boolean;
  must: string;
}

interface Slot {
  key: string;
  field: Shape[string];
  inner?: Shape;
}

/** A shape's fields as a list made once: a transcript's reader checks every line against a few shapes. */
const slots = new WeakMap<Shape, Slot[]>();
function slotsOf(shape: Shape): Slot[] {
  let list = slots.get(shape);
  if (!list) {
    list = Object.entries(shape).map(([key, f]) => ({
      key,
      field: f,
      ...(f instanceof ObjectField ? { inner: f.shape as Shape } : {}),
    }));
    slots.set(shape, list);
  }
  return list;
}

/** The first field the value lacks or gets wrong, in the shape's order; undefined when it fits. */
export function findIssue(shape: Shape, value: Readonly<Record<string, unknown>>): ShapeIssue | undefined {
  const list = slotsOf(shape);
  for (let i = 0; i < list.length; i++) {
    const { key, field: f, inner } = list[i]!;
    const v = value[key];
    if (inner && isRecord(v)) {
      const issue = findIssue(inner, v);
      if (issue) return { ...issue, path: `${key}.${issue.path}` };
    } else if (!f.accepts(v)) return { path: key, missing: v === undefined, must: f.must };
  }
  return undefined;
}

/** The issue as one line: "needs id", "seq must be an integer". */
export function shapeIssue(shape: Shape, value: Readonly<Record<string, unknown>>): string | undefined {
  const issue = findIssue(shape, value);
  if (!issue) return undefined;
  return issue.missing ? `needs ${issue.path}` : `${issue.path} ${issue.must}`;
}

/** The shape's fields that `from` has (undefined ones left out), in the shape's order. */
export function pickFields<S extends Shape>(shape: S, from: Readonly<Record<string, unknown>>): Partial<Infer<S>> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) if (from[key] !== undefined) out[key] = from[key];
  return out as Partial<Infer<S>>;
}
