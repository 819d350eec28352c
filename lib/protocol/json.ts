/** Reading untrusted JSON values. */

export type JsonObject = Record<string, unknown>;

/** A JSON object: not null and not an array. Reading a property off an array is never wanted here. */
export const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** The value when it is a string, else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The value when it is a finite number, else undefined. */
export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** The value when it is a JSON object, else an empty one (so fields read off it are undefined). */
export const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** A value as text for a message or a label: a string as it is, anything else as JSON (never "[object Object]"). */
export const display = (v: unknown): string => (typeof v === "string" ? v : (JSON.stringify(v) ?? String(v)));
