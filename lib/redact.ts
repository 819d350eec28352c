/**
 * Redaction before anything is written to a transcript (README "Redaction"):
 * - values of secret-looking environment variables of the relay and the agent,
 *   anywhere in the text;
 * - values shaped like credentials anywhere (prompt text, stderr, args, URLs):
 *   common API key formats, JWTs, bearer tokens, `NAME_KEY=value` and
 *   `--api-key=value` assignments, secret URL query parameters, URL passwords;
 * - in frames, string values under secret-looking keys (any key containing
 *   key, token, secret, password, credential, auth or cookie, in any case and
 *   separator), `{ name, value }` pairs (MCP env and headers) with such a name,
 *   and the argument after such a flag in an argument list.
 * Numbers, booleans and objects are never replaced: `maxTokens: 100` is usage,
 * `authMethods: [...]` is a list to look into, not a secret.
 */

export const REDACTED = "[REDACTED]";

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION)/i;
const MIN_SECRET_LENGTH = 6;

/** Words of a key: camelCase, kebab, snake, dotted and spaced alike ("X-Goog-Api-Key" -> x goog api key). */
const words = (key: string): string[] =>
  key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

const SECRET_WORD = /^(key|keys|auth|pat|bearer|pwd)$/;
const SECRET_PART = /token|secret|passw|passphrase|credential|apikey|privatekey|accesskey|authoriz|authtoken|cookie/;

/** Whether a field or header name says its value is a credential. */
export function isSecretKey(key: string): boolean {
  return words(key).some((w) => SECRET_WORD.test(w) || SECRET_PART.test(w));
}

/** Values of environment variables whose names look like secrets. */
export function secretsFromEnv(env: Record<string, string | undefined>): string[] {
  const values = Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && value && value.length >= MIN_SECRET_LENGTH)
    .map(([, value]) => value!);
  // Longest first, so a secret containing another is replaced whole.
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

export interface Redacted {
  text: string;
  count: number;
}

/** Characters a value may have inside a JSON string without escaping (so the raw line stays valid JSON). */
const V = String.raw`[^\s"'\\&#,;)<>\]}]`;

/** Whole matches are secrets. */
const VALUE_SHAPES: RegExp[] = [
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g, // OpenAI, Anthropic
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{22,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWT
];

const SIGNATURE = /^(sig|signature|x-amz-signature|x-goog-signature)$/i;

/** The whole match is replaced by group 1 (kept) and REDACTED, when `secret(name)` says group 2 names a secret. */
const PREFIXED_SHAPES: Array<{ re: RegExp; secret?: (name: string) => boolean }> = [
  // A bearer token: long and with a digit, so prose ("Bearer authentication") is left alone.
  { re: /(\b[Bb]earer\s+)((?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{16,})/g },
  // ?api_key=... &access_token=... in URLs.
  {
    re: new RegExp(String.raw`([?&]([A-Za-z0-9_.-]+)=)${V}+`, "g"),
    secret: (name) => isSecretKey(name) || SIGNATURE.test(name),
  },
  // MY_API_KEY=... (env style) and --api-key=... (flag style); a number is a setting, not a secret.
  {
    re: new RegExp(String.raw`((?:\b([A-Z][A-Z0-9_]*)|--?([A-Za-z][A-Za-z0-9-]*))=)(?!\d+\b)${V}{4,}`, "g"),
    secret: isSecretKey,
  },
  // scheme://user:password@host
  { re: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'\\]+:)[^\s@/"'\\]+(?=@)/gi },
];

function redactShapes(input: string): Redacted {
  let count = 0;
  let out = input;
  for (const re of VALUE_SHAPES) {
    out = out.replace(re, () => {
      count++;
      return REDACTED;
    });
  }
  for (const { re, secret } of PREFIXED_SHAPES) {
    out = out.replace(re, (m: string, kept: string, a: unknown, b: unknown) => {
      const name = typeof a === "string" ? a : typeof b === "string" ? b : undefined;
      if (m.slice(kept.length).startsWith(REDACTED.slice(0, -1)) || (secret && (!name || !secret(name)))) return m;
      count++;
      return `${kept}${REDACTED}`;
    });
  }
  return { text: out, count };
}

function replaceAll(text: string, forms: string[]): Redacted {
  let count = 0;
  let out = text;
  for (const form of forms) {
    const parts = out.split(form);
    count += parts.length - 1;
    out = parts.join(REDACTED);
  }
  return { text: out, count };
}

const FLAG = /^--?[A-Za-z0-9_-]+$/;

function redactFields(value: unknown): { value: unknown; count: number } {
  if (Array.isArray(value)) {
    let count = 0;
    const out = value.map((v, i) => {
      // ["--api-key", "abc"]: the argument after a secret-looking flag.
      const flag = value[i - 1];
      const isArg = typeof v === "string" && v !== REDACTED && !/^\d+$/.test(v);
      if (isArg && typeof flag === "string" && FLAG.test(flag) && isSecretKey(flag)) {
        count++;
        return REDACTED;
      }
      const r = redactFields(v);
      count += r.count;
      return r.value;
    });
    return { value: count ? out : value, count };
  }
  if (typeof value !== "object" || value === null) return { value, count: 0 };
  const obj = value as Record<string, unknown>;
  let count = 0;
  const out: Record<string, unknown> = {};
  // MCP server headers and env entries are {name, value} pairs.
  const namedSecret = typeof obj.name === "string" && isSecretKey(obj.name) && typeof obj.value === "string";
  for (const [key, v] of Object.entries(obj)) {
    if (
      typeof v === "string" &&
      v !== REDACTED &&
      v !== "" &&
      ((namedSecret && key === "value") || (key !== "name" && isSecretKey(key)))
    ) {
      out[key] = REDACTED;
      count++;
    } else {
      const r = redactFields(v);
      out[key] = r.value;
      count += r.count;
    }
  }
  return { value: count ? out : value, count };
}

export function createRedactor(secrets: readonly string[]): {
  text(text: string): Redacted;
  frame(raw: string): Redacted;
} {
  // Each secret as is, and as it appears inside a JSON string.
  const forms = secrets.map((secret) => [...new Set([secret, JSON.stringify(secret).slice(1, -1)])]);
  const text = (input: string): Redacted => {
    let out = input;
    let count = 0;
    for (const variants of forms) {
      if (!variants.some((v) => out.includes(v))) continue;
      const r = replaceAll(out, variants);
      out = r.text;
      count += r.count;
    }
    const shaped = redactShapes(out);
    return { text: shaped.text, count: count + shaped.count };
  };
  return {
    text,
    /** A frame's raw line; re-serialised only when a credential field had to be replaced. */
    frame(raw: string): Redacted {
      const first = text(raw);
      if (!/key|token|secret|passw|credential|auth|cookie|bearer|pwd|pat/i.test(first.text)) return first;
      let parsed: unknown;
      try {
        parsed = JSON.parse(first.text);
      } catch {
        return first;
      }
      const fields = redactFields(parsed);
      if (fields.count === 0) return first;
      return { text: JSON.stringify(fields.value), count: first.count + fields.count };
    },
  };
}
