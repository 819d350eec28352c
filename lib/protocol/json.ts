/** Reading untrusted JSON values. */

export type JsonObject = Record<string, unknown>;

/** A JSON object: not null and not an array. Reading a property off an array is never wanted here. */
export const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
