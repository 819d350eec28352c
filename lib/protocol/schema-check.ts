/**
 * Validates ACP frames against the SDK's JSON Schema
 * (`@agentclientprotocol/sdk/schema/v1/schema.json`): a request's or
 * notification's `params` by its method, a response's `result` by the method
 * of the request it answers (the relay puts it on the frame), an error
 * response's `error` against `Error`.
 *
 * A small validator for the subset of JSON Schema that file uses ($ref, type,
 * properties, required, additionalProperties, items, allOf/anyOf/oneOf, not,
 * const, enum, bounds, pattern, integer formats). It follows the SDK's
 * deserialiser where the schema says so: `x-deserialize-default-on-error`
 * fields and `x-deserialize-skip-invalid-items` array items never fail, a null
 * `x-deserialize-default-on-null` field is fine. `oneOf` is checked like
 * `anyOf` (the SDK takes the first variant that fits). The schema is passed in,
 * so callers decide when to load its 250 kB.
 */
import type { Frame } from "./frame";
import { isObject } from "./json";

export interface SchemaIssue {
  /** Where in the message, e.g. `params.update.content.type`. */
  path: string;
  message: string;
}

type Schema = boolean | { [keyword: string]: unknown };

interface SchemaFile {
  $defs: Record<string, Schema>;
}

const MAX_ISSUES = 20;
const MAX_DEPTH = 64;

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function typeMatches(type: string, v: unknown): boolean {
  const t = typeOf(v);
  return t === type || (type === "number" && t === "integer");
}

const join = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${key}` : key;

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

const INT_FORMAT = /^(u?)int(8|16|32|64)$/;

class Validator {
  constructor(private readonly defs: Record<string, Schema>) {}

  private resolve(ref: string): Schema {
    const m = /^#\/\$defs\/(.+)$/.exec(ref);
    const def = m ? this.defs[m[1]!] : undefined;
    if (def === undefined) throw new Error(`unresolvable $ref ${ref}`);
    return def;
  }

  validate(schema: Schema, v: unknown, path: string, out: SchemaIssue[], depth = 0): void {
    if (out.length >= MAX_ISSUES || schema === true) return;
    if (schema === false) {
      out.push({ path, message: "not allowed" });
      return;
    }
    if (depth > MAX_DEPTH) return;
    const s = schema;
    if (s["x-deserialize-default-on-null"] === true && v === null) return;
    if (s["x-deserialize-default-on-error"] === true) {
      // The SDK falls back to the default: whatever is here, it is not an error.
      return;
    }
    if (typeof s.$ref === "string") this.validate(this.resolve(s.$ref), v, path, out, depth + 1);

    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
      if (!types.some((t) => typeMatches(t, v))) {
        out.push({
          path,
          message:
            v === undefined
              ? `missing (expected ${types.join(" or ")})`
              : `expected ${types.join(" or ")}, got ${typeOf(v)}`,
        });
        return;
      }
    }
    if ("const" in s && JSON.stringify(s.const) !== JSON.stringify(v)) {
      out.push({ path, message: `expected ${show(s.const)}, got ${show(v)}` });
      return;
    }
    if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
      out.push({ path, message: `expected one of ${s.enum.map(show).join(", ")}, got ${show(v)}` });
      return;
    }

    if (typeof v === "number") {
      if (typeof s.minimum === "number" && v < s.minimum) out.push({ path, message: `below the minimum ${s.minimum}` });
      if (typeof s.maximum === "number" && v > s.maximum) out.push({ path, message: `above the maximum ${s.maximum}` });
      const f = typeof s.format === "string" ? INT_FORMAT.exec(s.format) : null;
      if (f) {
        if (!Number.isInteger(v)) out.push({ path, message: `expected an integer (${f[0]})` });
        else if (f[1] === "u" && v < 0) out.push({ path, message: `expected a non-negative integer (${f[0]})` });
      }
    }
    if (typeof v === "string") {
      if (typeof s.minLength === "number" && v.length < s.minLength)
        out.push({ path, message: `shorter than ${s.minLength}` });
      if (typeof s.maxLength === "number" && v.length > s.maxLength)
        out.push({ path, message: `longer than ${s.maxLength}` });
      if (typeof s.pattern === "string") {
        let re: RegExp | undefined;
        try {
          re = new RegExp(s.pattern, "u");
        } catch {
          out.push({ path, message: `the schema's pattern ${s.pattern} is not a valid regular expression` });
        }
        if (re && !re.test(v)) out.push({ path, message: `does not match ${s.pattern}` });
      }
    }
    if (Array.isArray(v)) {
      if (typeof s.minItems === "number" && v.length < s.minItems)
        out.push({ path, message: `fewer than ${s.minItems} items` });
      if (typeof s.maxItems === "number" && v.length > s.maxItems)
        out.push({ path, message: `more than ${s.maxItems} items` });
      if (s.items !== undefined && s["x-deserialize-skip-invalid-items"] !== true) {
        const items = s.items as Schema;
        for (let i = 0; i < v.length && out.length < MAX_ISSUES; i++)
          this.validate(items, v[i], join(path, i), out, depth + 1);
      }
    }
    if (isObject(v)) {
      const props = isObject(s.properties) ? (s.properties as Record<string, Schema>) : undefined;
      if (Array.isArray(s.required)) {
        for (const key of s.required as string[]) {
          if (!(key in v)) out.push({ path: join(path, key), message: "missing (required)" });
        }
      }
      if (props) {
        for (const [key, sub] of Object.entries(props)) {
          if (key in v) this.validate(sub, v[key], join(path, key), out, depth + 1);
        }
      }
      const extra = s.additionalProperties as Schema | undefined;
      if (extra !== undefined && extra !== true) {
        for (const key of Object.keys(v)) {
          if (props && key in props) continue;
          this.validate(extra, v[key], join(path, key), out, depth + 1);
        }
      }
    }

    if (Array.isArray(s.allOf)) for (const sub of s.allOf as Schema[]) this.validate(sub, v, path, out, depth + 1);
    for (const key of ["anyOf", "oneOf"] as const) {
      if (Array.isArray(s[key])) this.any(s[key] as Schema[], s.discriminator, v, path, out, depth);
    }
    if (s.not !== undefined) {
      const probe: SchemaIssue[] = [];
      this.validate(s.not as Schema, v, path, probe, depth + 1);
      if (probe.length === 0) out.push({ path, message: "matches a shape that is not allowed here" });
    }
  }

  /** At least one alternative must fit; explain with the closest one. */
  private any(
    alts: Schema[],
    discriminator: unknown,
    v: unknown,
    path: string,
    out: SchemaIssue[],
    depth: number,
  ): void {
    const tag =
      isObject(discriminator) && typeof discriminator.propertyName === "string"
        ? discriminator.propertyName
        : this.commonTag(alts);
    let best: SchemaIssue[] | undefined;
    let common: SchemaIssue | undefined;
    let same = true;
    for (const alt of alts) {
      const issues: SchemaIssue[] = [];
      this.validate(alt, v, path, issues, depth + 1);
      if (issues.length === 0) return;
      if (tag && isObject(v) && this.tagOf(alt, tag) === v[tag]) {
        // The discriminator picks this variant: its issues are the ones that matter.
        out.push(...issues.slice(0, MAX_ISSUES - out.length));
        return;
      }
      if (!best || issues.length < best.length) best = issues;
      const first = issues[0]!;
      common ??= first;
      same &&= first.path === common.path && first.message === common.message;
    }
    if (tag && isObject(v)) {
      out.push({ path: join(path, tag), message: `unknown ${tag} ${show(v[tag])}` });
      return;
    }
    if (alts.length === 1 && best) out.push(...best);
    // Every alternative fails the same way (say, all want an integer): say that.
    else if (same && common) out.push(common);
    else
      out.push({
        path,
        message: `matches none of ${alts.length} alternatives${best?.[0] ? ` (closest: ${best[0].path || "value"} ${best[0].message})` : ""}`,
      });
  }

  private tagOf(alt: Schema, tag: string): unknown {
    if (!isObject(alt)) return undefined;
    const props = alt.properties;
    const p = isObject(props) ? props[tag] : undefined;
    if (!isObject(p)) return undefined;
    // A one-value enum is a const (Codex's schema writes its tags so).
    return "const" in p ? p.const : Array.isArray(p.enum) && p.enum.length === 1 ? p.enum[0] : undefined;
  }

  /**
   * The tag of a union that names no discriminator: a property every alternative fixes to a value
   * of its own (`type` in Codex's schema). Undefined when there is none, or several.
   */
  private commonTag(alts: Schema[]): string | undefined {
    const first = alts[0];
    if (alts.length < 2 || !isObject(first) || !isObject(first.properties)) return undefined;
    const found = Object.keys(first.properties).filter((key) => {
      const values = alts.map((alt) => this.tagOf(alt, key));
      return values.every((v) => typeof v === "string") && new Set(values).size === alts.length;
    });
    return found.length === 1 ? found[0] : undefined;
  }
}

export interface SchemaChecker {
  /** Issues for a frame; undefined when its method has no schema (unknown, extension, invalid frame). */
  check(frame: Frame): SchemaIssue[] | undefined;
  /** Validates a value against a named definition, e.g. ("SessionUpdate", update). */
  validate(def: string, value: unknown, path?: string): SchemaIssue[];
}

export function createSchemaChecker(schemaFile: unknown): SchemaChecker {
  const defs = (schemaFile as SchemaFile).$defs;
  if (!isObject(defs)) throw new Error("not the ACP JSON Schema: no $defs");
  const validator = new Validator(defs);
  const params = new Map<string, string>();
  const results = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    const method = isObject(def) ? def["x-method"] : undefined;
    if (typeof method !== "string") continue;
    if (name.endsWith("Request") || name.endsWith("Notification")) params.set(method, name);
    else if (name.endsWith("Response")) results.set(method, name);
  }

  const validate = (def: string, value: unknown, path = ""): SchemaIssue[] => {
    const out: SchemaIssue[] = [];
    validator.validate({ $ref: `#/$defs/${def}` }, value, path, out);
    return out;
  };

  return {
    validate,
    check(frame) {
      const m = frame.message;
      if (!isObject(m)) return undefined;
      // An error object has one shape whatever it answers, even an unknown id.
      if (frame.kind === "response" && "error" in m) return validate("Error", m.error, "error");
      if (frame.method === undefined) return undefined;
      if (frame.kind === "request" || frame.kind === "notification") {
        const def = params.get(frame.method);
        return def ? validate(def, m.params, "params") : undefined;
      }
      if (frame.kind === "response") {
        const def = results.get(frame.method);
        return def ? validate(def, m.result, "result") : undefined;
      }
      return undefined;
    },
  };
}

/** The schema variants the installed SDK ships, in the order a frame is looked up. */
export type SchemaVariant = "stable" | "unstable" | "v2";

export const SCHEMA_VARIANTS: readonly SchemaVariant[] = ["stable", "unstable", "v2"];

/** Where each variant's file lies in the SDK package (the server reads these; the browser imports the same files). */
export const SCHEMA_FILE_PATHS: Readonly<Record<SchemaVariant, string>> = {
  stable: "@agentclientprotocol/sdk/schema/v1/schema.json",
  unstable: "@agentclientprotocol/sdk/schema/v1/schema.unstable.json",
  v2: "@agentclientprotocol/sdk/schema/v2/schema.unstable.json",
};

/** One schema file per variant (see SCHEMA_FILE_PATHS). */
export type SchemaFiles = Partial<Record<SchemaVariant, unknown>> & { stable: unknown };

export interface SchemaVerdict {
  /** The variant that defines the frame's method or update kind (and judged it); undefined: none does. */
  variant: SchemaVariant | undefined;
  /** Empty when that variant accepts the frame; "not in any schema" when no variant defines it. */
  issues: SchemaIssue[];
}

export interface CheckOptions {
  /** The agent answered `initialize` with protocolVersion 2: v2's methods and kinds count too. */
  v2?: boolean;
}

export interface SchemaSet {
  /** The one validity rule; undefined when a frame is not checkable (invalid, extension `_` method, unknown response). */
  check(frame: Frame, opts?: CheckOptions): SchemaVerdict | undefined;
  /** The variant that defines a method for this kind of frame (params or result), if any. */
  variantOf(method: string, kind: "params" | "result", opts?: CheckOptions): SchemaVariant | undefined;
  /** The variant that defines a `session/update` kind, if any. */
  updateVariantOf(kind: string, opts?: CheckOptions): SchemaVariant | undefined;
  /** The checker of one variant (for named definitions, e.g. compose forms). */
  checker(variant: SchemaVariant): SchemaChecker | undefined;
}

interface Loaded {
  variant: SchemaVariant;
  checker: SchemaChecker;
  params: ReadonlySet<string>;
  results: ReadonlySet<string>;
  updateKinds: ReadonlySet<string>;
}

function describeFile(variant: SchemaVariant, file: unknown): Loaded {
  const defs = (file as SchemaFile).$defs;
  if (!isObject(defs)) throw new Error(`not the ACP JSON Schema (${variant}): no $defs`);
  const params = new Set<string>();
  const results = new Set<string>();
  for (const [name, def] of Object.entries(defs)) {
    const method = isObject(def) ? def["x-method"] : undefined;
    if (typeof method !== "string") continue;
    if (name.endsWith("Request") || name.endsWith("Notification")) params.add(method);
    else if (name.endsWith("Response")) results.add(method);
  }
  const updateKinds = new Set<string>();
  const update = defs.SessionUpdate;
  const alts = isObject(update) ? (update.oneOf ?? update.anyOf) : undefined;
  if (Array.isArray(alts)) {
    for (const alt of alts) {
      const tag = isObject(alt) && isObject(alt.properties) ? alt.properties.sessionUpdate : undefined;
      if (isObject(tag) && typeof tag.const === "string") updateKinds.add(tag.const);
    }
  }
  return { variant, checker: createSchemaChecker(file), params, results, updateKinds };
}

const UPDATE = "session/update";

/** The kind of a `session/update` frame (`params.update.sessionUpdate`), when it has one. */
export function updateKindOf(message: unknown): string | undefined {
  if (!isObject(message) || !isObject(message.params)) return undefined;
  const update = message.params.update;
  return isObject(update) && typeof update.sessionUpdate === "string" ? update.sessionUpdate : undefined;
}

/**
 * One validity rule for every place that judges frames (inspector, relay): a
 * frame is checked against the variant that defines its method or update kind,
 * stable first, else unstable; when v2 was negotiated, v2 first, then the v1 variants. A `session/update`
 * kind that no variant defines is "not in any schema"; so is a request or
 * notification method outside every schema that is not an `_` extension.
 */
export function createSchemaSet(files: SchemaFiles): SchemaSet {
  const loaded = SCHEMA_VARIANTS.flatMap((v) => (files[v] === undefined ? [] : [describeFile(v, files[v])]));
  const inScope = (l: Loaded, opts?: CheckOptions) => l.variant !== "v2" || opts?.v2 === true;
  // Once v2 is negotiated its schema comes first: v2 reshaped v1's methods (a prompt's result is a receipt).
  const v2First = [...loaded.filter((l) => l.variant === "v2"), ...loaded.filter((l) => l.variant !== "v2")];
  const find = (pred: (l: Loaded) => boolean, opts?: CheckOptions) =>
    (opts?.v2 ? v2First : loaded).find((l) => inScope(l, opts) && pred(l));

  return {
    checker: (variant) => loaded.find((l) => l.variant === variant)?.checker,
    variantOf: (method, kind, opts) =>
      find((l) => (kind === "params" ? l.params : l.results).has(method), opts)?.variant,
    updateVariantOf: (kind, opts) => find((l) => l.updateKinds.has(kind), opts)?.variant,
    check(frame, opts) {
      const m = frame.message;
      if (!isObject(m)) return undefined;
      if (frame.kind === "response" && "error" in m) {
        const l = loaded[0]!;
        return { variant: l.variant, issues: l.checker.check(frame) ?? [] };
      }
      const method = frame.method;
      if (method === undefined) return undefined;
      const isCall = frame.kind === "request" || frame.kind === "notification";
      if (!isCall && frame.kind !== "response") return undefined;
      let l: Loaded | undefined;
      if (isCall && method === UPDATE) {
        const kind = updateKindOf(m);
        if (kind !== undefined) {
          l = find((x) => x.updateKinds.has(kind), opts);
          if (!l)
            return {
              variant: undefined,
              issues: [{ path: "params.update.sessionUpdate", message: `${show(kind)} is not in any schema` }],
            };
        }
      }
      l ??= find((x) => (isCall ? x.params : x.results).has(method), opts);
      if (!l) {
        if (isCall && !method.startsWith("_"))
          return { variant: undefined, issues: [{ path: "method", message: `${show(method)} is not in any schema` }] };
        return undefined;
      }
      return { variant: l.variant, issues: l.checker.check(frame) ?? [] };
    },
  };
}

/** True when an `initialize` result negotiated protocol version 2 (the v2 draft). */
export function negotiatedV2(initializeResult: unknown): boolean {
  return isObject(initializeResult) && initializeResult.protocolVersion === 2;
}
