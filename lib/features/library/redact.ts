/**
 * Redaction before anything is written to a transcript (README "Redaction"):
 * - values of secret-looking environment variables of the relay and the agent,
 *   and values typed for the agent, of MIN_REDACTED_LENGTH characters or more,
 *   anywhere in plain text; in a JSON object or array (a frame, a transcript
 *   line) only inside its strings (keys too), never across them, so the output
 *   is valid JSON of the same structure (a secret written as a number stays);
 * - values shaped like credentials anywhere (prompt text, stderr, args, URLs):
 *   common API key formats (Stripe's, Slack and Discord webhook URLs too), JWTs,
 *   bearer tokens, `NAME_KEY=value` and `--api-key=value` assignments, secret URL
 *   query parameters, URL passwords and a DSN's key (`https://<key>@host`);
 * - in frames, string values under secret-looking keys (any key containing
 *   key, token, secret, password, credential, auth or cookie, in any case and
 *   separator), `{ name, value }` pairs (MCP env and headers) with such a name,
 *   and the argument after such a flag in an argument list.
 * Numbers, booleans and objects are never replaced: `maxTokens: 100` is usage,
 * `authMethods: [...]` is a list to look into, not a secret.
 */

export const REDACTED = "[REDACTED]";

/**
 * An environment variable whose name holds one of these, or whose words say secret (isSecretKey:
 * DB_PASS, MYSQL_PWD; not GIT_ASKPASS, a program's path), holds a secret.
 */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|DSN|WEBHOOK|CREDENTIAL|AUTH|COOKIE|SESSION/i;

/** The shell's working directories: paths, though their names say PWD. */
const SHELL_DIRS = new Set(["PWD", "OLDPWD"]);

/**
 * A secret value shorter than this is not looked for: a typed `1` (or an
 * environment's `ubuntu`) would replace every `1` in a transcript.
 */
export const MIN_REDACTED_LENGTH = 8;

/** Words of a key: camelCase, kebab, snake, dotted and spaced alike ("X-Goog-Api-Key" -> x goog api key). */
const words = (key: string): string[] =>
  key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

const SECRET_WORD = /^(key|keys|auth|pat|bearer|pwd|pass|dsn)$/;
const SECRET_PART =
  /token|secret|passw|passphrase|credential|apikey|privatekey|accesskey|authoriz|authtoken|cookie|webhook/;

/** Whether a field or header name says its value is a credential. */
export function isSecretKey(key: string): boolean {
  return words(key).some((w) => SECRET_WORD.test(w) || SECRET_PART.test(w));
}

/** Values of environment variables whose names look like secrets. */
export function secretsFromEnv(env: Record<string, string | undefined>): string[] {
  const values = Object.entries(env)
    .filter(
      ([name, value]) =>
        (SECRET_NAME.test(name) || isSecretKey(name)) &&
        !SHELL_DIRS.has(name) &&
        value &&
        value.length >= MIN_REDACTED_LENGTH,
    )
    .map(([, value]) => value!);
  // Longest first, so a secret containing another is replaced whole.
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

export interface Redacted {
  text: string;
  count: number;
}

/** A secret as encodeURIComponent writes it (its own text when nothing needs encoding). */
function percentEncoded(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return secret; // a lone surrogate
  }
}

/** Characters a value may have inside a JSON string without escaping (so the raw line stays valid JSON). */
const V = String.raw`[^\s"'\\&#,;)<>\]}]`;

/** Whole matches are secrets; each starts at a word boundary. */
const WHOLE = [
  String.raw`sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}`, // OpenAI, Anthropic
  String.raw`[sr]k_(?:live|test)_[A-Za-z0-9]{10,}`, // Stripe secret and restricted keys
  String.raw`AIza[0-9A-Za-z_-]{35}\b`, // Google
  String.raw`gh[pousr]_[A-Za-z0-9]{30,}\b`, // GitHub tokens
  String.raw`github_pat_[A-Za-z0-9_]{22,}`,
  String.raw`(?:AKIA|ASIA)[0-9A-Z]{16}\b`, // AWS access key ids
  String.raw`xox[abprs]-[A-Za-z0-9-]{10,}`, // Slack
  String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, // JWT
];

/**
 * Every shape in one regex, so a string is scanned once (this runs on every frame); those that
 * start at a word boundary share its test. Groups: `w`, a whole secret; `b`, `h`, `s` + `p`, kept
 * text before a secret (the rest of the match); `a`, `q`, `f`, a name (an env-style assignment, a
 * URL query parameter, a flag) whose value, read after the match, is a secret when the name looks
 * like one. A name that does not leaves its value to be scanned on (`STRIPE_SK=sk_live_...`).
 */
const SHAPES = new RegExp(
  String.raw`\b(?:` +
    [
      `(?<w>${WHOLE.join("|")})`,
      // A bearer token (long and with a digit, so prose, "Bearer authentication", is left alone) and HTTP
      // Basic credentials (curl -v, a proxy's log: base64 of user:password, with a digit, + / or =).
      String.raw`(?<b>[Bb]earer\s+(?=[A-Za-z0-9._~+/=-]*\d)(?=[A-Za-z0-9._~+/=-]{16})|[Bb]asic\s+(?=[A-Za-z0-9+/]*[0-9+/=])(?=[A-Za-z0-9+/]{8}))[A-Za-z0-9._~+/=-]+`,
      // Slack and Discord webhooks: the URL is the credential.
      String.raw`(?<h>(?:hooks\.slack\.com/(?:services|workflows|triggers)|discord(?:app)?\.com/api/webhooks)/)[A-Za-z0-9/_-]{8,}`,
      // scheme://user:password@host (the user may be empty: redis://:pw@host), and scheme://key@host
      // as a DSN carries its key: a long user name only (not git@, admin@). A scheme is short: unbounded,
      // text like "a.a.a..." (a boundary at every letter) would be scanned again from each one.
      String.raw`(?<s>[A-Za-z][A-Za-z0-9+.-]{0,19}://)(?:(?<p>[^\s:/@"'\\]*:)[^\s@/"'\\]+|[A-Za-z0-9._~%+-]{16,})(?=@)`,
      // MY_API_KEY=... (env style, the value maybe quoted)
      String.raw`(?<a>[A-Z][A-Z0-9_]*)=(?:\\?["'])?`,
    ].join("|") +
    ")" +
    // ?api_key=... &access_token=... in URLs; --api-key=... (flag style)
    String.raw`|[?&](?<q>[A-Za-z0-9_.-]+)=|--?(?<f>[A-Za-z][A-Za-z0-9-]{0,63})=(?:\\?["'])?`,
  "g",
);
/** The value after a query parameter's name, and after an assignment's (a number is a setting, not a secret). */
const QUERY_VALUE = new RegExp(`${V}+`, "y");
const ASSIGNED_VALUE = new RegExp(String.raw`(?!\d+\b)${V}{4,}`, "y");

const SIGNATURE = /^(sig|signature|x-amz-signature|x-goog-signature)$/i;

const isSecretQuery = (name: string) => isSecretKey(name) || SIGNATURE.test(name);
const isSecretAssignment = (name: string) => !SHELL_DIRS.has(name) && isSecretKey(name);

function redactShapes(input: string): Redacted {
  let count = 0;
  let out = "";
  let last = 0;
  SHAPES.lastIndex = 0;
  for (let m = SHAPES.exec(input); m; m = SHAPES.exec(input)) {
    const g = m.groups!;
    let start = m.index + (g.b ?? g.h ?? (g.s ?? "") + (g.p ?? "")).length;
    let end = m.index + m[0].length;
    const name = g.q ?? g.a ?? g.f;
    if (name !== undefined) {
      const query = g.q !== undefined;
      const value = query ? QUERY_VALUE : ASSIGNED_VALUE;
      value.lastIndex = end;
      const found = value.exec(input);
      // Not a secret: scanning goes on from the value, which may hold a shape.
      if (!found || !(query ? isSecretQuery(name) : isSecretAssignment(name))) continue;
      start = end;
      end += found[0].length;
    }
    if (input.startsWith(REDACTED.slice(0, -1), start)) continue; // never redact twice
    out += input.slice(last, start) + REDACTED;
    last = end;
    SHAPES.lastIndex = end;
    count++;
  }
  return count ? { text: out + input.slice(last), count } : { text: input, count };
}

function replaceAll(text: string, forms: readonly string[]): Redacted {
  let count = 0;
  let out = text;
  for (const form of forms) {
    if (!out.includes(form)) continue;
    const parts = out.split(form);
    count += parts.length - 1;
    out = parts.join(REDACTED);
  }
  return { text: out, count };
}

/** An object or array, as a frame or a transcript line is (a bare number or string is text). */
const looksLikeJson = (text: string) => /^\s*[[{]/.test(text);

interface Secrets {
  /** The secrets, longest first. */
  raw: readonly string[];
  /** Each secret as is and as it appears inside a JSON string (JSON.stringify's escapes), longest secret first. */
  all: readonly string[];
}

/** Where any of `forms` starts in `text`, in order. */
function hitsOf(text: string, forms: readonly string[]): number[] {
  const hits: number[] = [];
  for (const form of forms) for (let i = text.indexOf(form); i !== -1; i = text.indexOf(form, i + 1)) hits.push(i);
  return hits.sort((a, b) => a - b);
}

/** One string token of a JSON text, quotes included, with the secrets in its value replaced. */
function replaceInToken(token: string, secrets: Secrets): Redacted {
  if (!token.includes("\\")) {
    // Nothing escaped (no quote, no backslash inside): the text between the quotes is the value,
    // and REDACTED needs no escaping either.
    const r = replaceAll(token.slice(1, -1), secrets.raw);
    return r.count ? { text: `"${r.text}"`, count: r.count } : { text: token, count: 0 };
  }
  const r = replaceSecrets(JSON.parse(token) as string, secrets);
  return r.count ? { text: JSON.stringify(r.text), count: r.count } : { text: token, count: 0 };
}

/**
 * Secrets replaced inside the strings (keys and values) of a valid JSON text,
 * never across or outside them: numbers, literals, punctuation and the rest of
 * the text are kept byte for byte. One pass over the quotes up to the last
 * place a secret shows: outside a string, valid JSON has no quote, so each quote
 * found there opens the next string; only strings holding one are decoded.
 */
function replaceInJson(json: string, secrets: Secrets): Redacted {
  const hits = hitsOf(json, secrets.all);
  const parts: string[] = [];
  let count = 0;
  let last = 0;
  let h = 0;
  for (let open = json.indexOf('"'); open !== -1 && h < hits.length;) {
    let close = json.indexOf('"', open + 1);
    while (close !== -1) {
      // A quote after an odd number of backslashes is escaped.
      let slashes = 0;
      while (json.charCodeAt(close - 1 - slashes) === 92) slashes++;
      if (slashes % 2 === 0) break;
      close = json.indexOf('"', close + 1);
    }
    if (close === -1) break; // never in valid JSON
    // A secret showing between strings is structure (a number, a key's quotes and colon): left alone.
    while (h < hits.length && hits[h]! < open) h++;
    if (h < hits.length && hits[h]! < close) {
      const r = replaceInToken(json.slice(open, close + 1), secrets);
      if (r.count) {
        parts.push(json.slice(last, open), r.text);
        last = close + 1;
        count += r.count;
      }
      while (h < hits.length && hits[h]! <= close) h++;
    }
    open = json.indexOf('"', close + 1);
  }
  if (count === 0) return { text: json, count };
  parts.push(json.slice(last));
  return { text: parts.join(""), count };
}

/**
 * Replaces known secret values (longest first). In a JSON object or array, only
 * inside its strings (replaceInJson), so the output is valid JSON of the same
 * shape; a string that is JSON itself (a frame's raw line inside a transcript
 * line) is searched the same way. In other text, the secret and its
 * JSON-escaped form anywhere.
 */
function replaceSecrets(input: string, secrets: Secrets): Redacted {
  if (!secrets.all.some((form) => input.includes(form))) return { text: input, count: 0 };
  if (looksLikeJson(input)) {
    try {
      JSON.parse(input);
    } catch {
      return replaceAll(input, secrets.all); // not JSON after all (a cut-off line): plain text
    }
    return replaceInJson(input, secrets);
  }
  return replaceAll(input, secrets.all);
}

const FLAG = /^--?[A-Za-z0-9_-]+$/;

/** An object or array being walked by redactFields, and its copy so far. */
interface Walk {
  src: unknown[] | Record<string, unknown>;
  out: unknown[] | Record<string, unknown>;
  keys: string[];
  next: number;
  count: number;
  /** A `{ name, value }` pair whose name says secret. */
  namedSecret: boolean;
  /** Where the copy goes in the parent's. */
  at: string;
}

/** `out[key] = value`, a `__proto__` key included (assigned, it would set the prototype and vanish from the copy). */
function put(out: object, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else (out as Record<string, unknown>)[key] = value;
}

/**
 * Secret-looking fields replaced (see the summary above); with `strings`, every other string (keys
 * too) goes through it as well: a frame whose strings hold JSON escapes, which only a decoded string
 * shows (`p\u00e4ss`, `sk\u005flive_`, `https:\/\/`). Walked without recursion: an agent's frame
 * may nest as deep as JSON.parse reads (tens of thousands of levels).
 */
function redactFields(root: unknown, strings?: (s: string) => Redacted): { value: unknown; count: number } {
  const open = (src: unknown[] | Record<string, unknown>, at: string): Walk => {
    const isArray = Array.isArray(src);
    const obj = src as Record<string, unknown>;
    return {
      src,
      out: isArray ? new Array<unknown>(src.length) : {},
      keys: isArray ? [] : Object.keys(src),
      next: 0,
      count: 0,
      namedSecret: !isArray && typeof obj.name === "string" && isSecretKey(obj.name) && typeof obj.value === "string",
      at,
    };
  };
  if (typeof root !== "object" || root === null) {
    if (typeof root !== "string" || !strings) return { value: root, count: 0 };
    const r = strings(root);
    return r.count ? { value: r.text, count: r.count } : { value: root, count: 0 };
  }
  const stack = [open(root as Walk["src"], "")];
  for (;;) {
    const w = stack.at(-1)!;
    const isArray = Array.isArray(w.src);
    const size = isArray ? w.src.length : w.keys.length;
    if (w.next === size) {
      stack.pop();
      const value = w.count ? w.out : w.src;
      const parent = stack.at(-1);
      if (!parent) return { value, count: w.count };
      put(parent.out, parent.at, value);
      parent.count += w.count;
      continue;
    }
    const i = w.next++;
    let key = isArray ? String(i) : w.keys[i]!;
    const v = (w.src as Record<string, unknown>)[key];
    let secret: boolean;
    if (isArray) {
      // ["--api-key", "abc"]: the argument after a secret-looking flag.
      const flag: unknown = (w.src as unknown[])[i - 1];
      secret =
        typeof v === "string" &&
        v !== REDACTED &&
        !/^\d+$/.test(v) &&
        typeof flag === "string" &&
        FLAG.test(flag) &&
        isSecretKey(flag);
    } else {
      secret =
        typeof v === "string" &&
        v !== REDACTED &&
        v !== "" &&
        ((w.namedSecret && key === "value") || (key !== "name" && isSecretKey(key)));
      if (strings) {
        const k = strings(key);
        if (k.count) {
          w.count += k.count;
          key = k.text;
        }
      }
    }
    if (secret) {
      put(w.out, key, REDACTED);
      w.count++;
    } else if (typeof v === "object" && v !== null) {
      w.at = key;
      stack.push(open(v as Walk["src"], key));
    } else if (typeof v === "string" && strings) {
      const r = strings(v);
      put(w.out, key, r.count ? r.text : v);
      w.count += r.count;
    } else put(w.out, key, v);
  }
}

/** Text written as it is by toJson. */
class Punctuation {
  constructor(readonly text: string) {}
}

/** JSON.stringify of a parsed frame without recursion (it overflows on what JSON.parse reads: tens of thousands of levels). */
function toJson(root: unknown): string {
  try {
    return JSON.stringify(root);
  } catch {
    // Too deep for it: written below.
  }
  const out: string[] = [];
  const todo: unknown[] = [root];
  while (todo.length) {
    const v = todo.pop();
    if (v instanceof Punctuation) out.push(v.text);
    else if (typeof v !== "object" || v === null) out.push(JSON.stringify(v) ?? "null");
    else {
      const parts: unknown[] = [];
      if (Array.isArray(v)) {
        parts.push(new Punctuation("["));
        v.forEach((x, i) => (i ? parts.push(new Punctuation(","), x) : parts.push(x)));
        parts.push(new Punctuation("]"));
      } else {
        parts.push(new Punctuation("{"));
        Object.keys(v).forEach((k, i) =>
          parts.push(new Punctuation(`${i ? "," : ""}${JSON.stringify(k)}:`), (v as Record<string, unknown>)[k]),
        );
        parts.push(new Punctuation("}"));
      }
      for (let i = parts.length - 1; i >= 0; i--) todo.push(parts[i]);
    }
  }
  return out.join("");
}

/** A JSON escape a writer may use where JSON.stringify writes the character itself. */
const ESCAPE = /\\(?:u[0-9a-fA-F]{4}|\/)/;

export function createRedactor(secrets: readonly string[]): {
  text(text: string): Redacted;
  frame(raw: string): Redacted;
  args(args: readonly string[]): string[];
} {
  // Long enough to be a secret (not inside REDACTED itself: never redact twice), longest first,
  // so a secret containing another is replaced whole.
  const kept = [...new Set(secrets)]
    .filter((s) => typeof s === "string" && s.length >= MIN_REDACTED_LENGTH && !REDACTED.includes(s))
    .sort((a, b) => b.length - a.length);
  // Each also percent-encoded, as in a URL an agent prints (only URL-safe characters: no JSON escaping).
  const raw = [...new Set(kept.flatMap((secret) => [secret, percentEncoded(secret)]))].sort(
    (a, b) => b.length - a.length,
  );
  const secretForms: Secrets = {
    raw,
    all: raw.flatMap((secret) => [...new Set([secret, JSON.stringify(secret).slice(1, -1)])]),
  };
  const text = (input: string): Redacted => {
    const found = replaceSecrets(input, secretForms);
    const shaped = redactShapes(found.text);
    return { text: shaped.text, count: found.count + shaped.count };
  };
  return {
    text,
    /** A frame's raw line; re-serialised only when a credential field had to be replaced. */
    frame(raw: string): Redacted {
      let first = text(raw);
      if (ESCAPE.test(first.text)) {
        // Strings with escapes: their decoded text is redacted too (re-serialised only when it held a secret).
        try {
          const decoded = redactFields(JSON.parse(first.text), text);
          if (decoded.count) first = { text: toJson(decoded.value), count: first.count + decoded.count };
        } catch {
          // Not JSON: the text pass was all.
        }
      }
      if (!/key|token|secret|pass|credential|auth|cookie|bearer|pwd|pat|dsn|webhook/i.test(first.text)) return first;
      let parsed: unknown;
      try {
        parsed = JSON.parse(first.text);
      } catch {
        return first;
      }
      const fields = redactFields(parsed);
      if (fields.count === 0) return first;
      return { text: toJson(fields.value), count: first.count + fields.count };
    },
    /** A command's arguments, as a frame's list: the one after `--api-key` and the like goes too. */
    args(args: readonly string[]): string[] {
      try {
        const out: unknown = JSON.parse(this.frame(JSON.stringify(args)).text);
        if (Array.isArray(out) && out.length === args.length && out.every((a) => typeof a === "string")) return out;
      } catch {
        // a secret that matched JSON punctuation
      }
      return args.map((a) => text(a).text);
    },
  };
}
