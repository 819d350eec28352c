/**
 * A line as any agent's JSON reader may read it, for rules that must hold whatever the reader.
 * Readers differ where JSON is loose: a key given twice (JavaScript, Python and Go keep the last
 * copy, others the first or either), `NaN` and `Infinity` (Python accepts them), a byte-order
 * mark, several values on one line (a streaming decoder reads each), a trailing comma, a string
 * cut at a NUL (C), Unicode white space around a value (trimmed first). So this
 * reader accepts all of them and keeps every copy of a repeated key (`Alternatives`): a rule
 * checked over every reading holds for the one the agent picks. Iterative, so no nesting depth
 * overflows it.
 */

/** The copies of a key given more than once in one object, in order. */
export class Alternatives {
  constructor(readonly values: unknown[]) {}
}

export interface Readings {
  /** The values read, in order; objects have no prototype, a repeated key holds its Alternatives. */
  values: unknown[];
  /** Why reading stopped before the end of the line (the values before that point are kept). */
  error?: string;
}

type Open = { array: unknown[] } | { object: Record<string, unknown>; key: string | undefined };

const NUMBER = /-?(?:Infinity|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)|NaN/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const HEX4 = /^[0-9a-fA-F]{4}$/;
/**
 * What readers trim from a line before parsing it (the ACP SDK: `JSON.parse(line.trim())`; Python's
 * `strip()`; Rust's `trim()`): Unicode white space, \v, \f, \x1c-\x1f, U+0085, a byte-order mark.
 * Read as white space anywhere, so a line padded with it is still read.
 */
const TRIMMED = /^[\s\x1c-\x1f\x85\ufeff]$/;

function add(object: Record<string, unknown>, key: string, value: unknown): void {
  // A reader in C keeps a key only up to a NUL (`"cwd\u0000x"` is its `cwd`): that reading counts too.
  const nul = key.indexOf("\0");
  if (nul >= 0) add(object, key.slice(0, nul), value);
  if (!Object.hasOwn(object, key)) {
    object[key] = value;
    return;
  }
  const held = object[key];
  if (held instanceof Alternatives) held.values.push(value);
  else object[key] = new Alternatives([held, value]);
}

export function readJsonLine(text: string): Readings {
  const values: unknown[] = [];
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: Open[] = [];
  const stop = (why: string): Readings => ({ values, error: `${why} at character ${i}` });
  const skip = () => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && !((c < 32 || c > 126) && TRIMMED.test(text[i]!))) break;
    }
  };
  /** A string at `i` (a quote), its escapes decoded; undefined when it is not one. */
  const readString = (): string | undefined => {
    let out = "";
    let j = i + 1;
    let quote = text.indexOf('"', j);
    let backslash = text.indexOf("\\", j);
    for (;;) {
      if (quote < 0) return undefined;
      if (backslash < 0 || backslash > quote) {
        out += text.slice(j, quote);
        i = quote + 1;
        return out;
      }
      out += text.slice(j, backslash);
      const e = text[backslash + 1] ?? "";
      if (e === "u") {
        const hex = text.slice(backslash + 2, backslash + 6);
        if (!HEX4.test(hex)) return undefined;
        out += String.fromCharCode(parseInt(hex, 16));
        j = backslash + 6;
      } else if (Object.hasOwn(ESCAPES, e)) {
        out += ESCAPES[e];
        j = backslash + 2;
      } else return undefined;
      // Each search runs again only once passed: a string of many escapes stays linear.
      if (quote < j) quote = text.indexOf('"', j);
      if (backslash < j) backslash = text.indexOf("\\", j);
    }
  };

  for (;;) {
    skip();
    let top = stack.at(-1);
    if (!top && i >= n) return { values };
    let value: unknown;
    if (top && "object" in top && top.key === undefined) {
      // An object wants a key (or its end: `{}`, or a trailing comma).
      if (text[i] === "}") {
        i++;
        stack.pop();
        value = top.object;
      } else {
        if (text[i] !== '"') return stop("expected a key");
        const key = readString();
        if (key === undefined) return stop("a bad string");
        skip();
        if (text[i] !== ":") return stop("expected a colon");
        i++;
        top.key = key;
        continue;
      }
    } else if (top && "array" in top && text[i] === "]") {
      i++;
      stack.pop();
      value = top.array;
    } else {
      const c = text[i];
      if (c === "{") {
        i++;
        stack.push({ object: Object.create(null) as Record<string, unknown>, key: undefined });
        continue;
      }
      if (c === "[") {
        i++;
        stack.push({ array: [] });
        continue;
      }
      if (c === '"') {
        value = readString();
        if (value === undefined) return stop("a bad string");
      } else if (text.startsWith("true", i)) {
        value = true;
        i += 4;
      } else if (text.startsWith("false", i)) {
        value = false;
        i += 5;
      } else if (text.startsWith("null", i)) {
        value = null;
        i += 4;
      } else {
        NUMBER.lastIndex = i;
        const m = NUMBER.exec(text);
        if (!m) return stop("expected a value");
        value = Number(m[0]);
        i += m[0].length;
      }
    }
    // A value is complete: it goes into its container, which may close in turn.
    for (;;) {
      top = stack.at(-1);
      if (!top) {
        values.push(value);
        break;
      }
      if ("array" in top) top.array.push(value);
      else if ("object" in top) {
        add(top.object, top.key!, value);
        top.key = undefined;
      }
      skip();
      if (text[i] === ",") {
        i++;
        break;
      }
      const closer = "array" in top ? "]" : "}";
      if (text[i] !== closer) return stop(`expected "," or "${closer}"`);
      i++;
      stack.pop();
      value = "array" in top ? top.array : top.object;
    }
  }
}
