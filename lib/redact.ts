/**
 * Redaction before anything is written to a transcript: values of secret-looking
 * environment variables anywhere in the text, and credential fields in frames
 * (Authorization headers, api keys under _meta or elsewhere).
 */

export const REDACTED = "[REDACTED]";

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION)/i;
const SECRET_FIELD =
  /^(authorization|proxy-authorization|x-api-key|api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|id[-_]?token|token|secret|client[-_]?secret|password|cookie)$/i;
const MIN_SECRET_LENGTH = 6;

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

function redactFields(value: unknown): { value: unknown; count: number } {
  if (Array.isArray(value)) {
    let count = 0;
    const out = value.map((v) => {
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
  const namedSecret = typeof obj.name === "string" && SECRET_FIELD.test(obj.name) && typeof obj.value === "string";
  for (const [key, v] of Object.entries(obj)) {
    if (
      (SECRET_FIELD.test(key) && typeof v === "string" && v !== REDACTED) ||
      (namedSecret && key === "value" && v !== REDACTED)
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

export function createRedactor(secrets: string[]): { text(text: string): Redacted; frame(raw: string): Redacted } {
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
    return { text: out, count };
  };
  return {
    text,
    /** A frame's raw line; re-serialised only when a credential field had to be replaced. */
    frame(raw: string): Redacted {
      const first = text(raw);
      if (!/authoriz|key|token|secret|password|cookie/i.test(first.text)) return first;
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
