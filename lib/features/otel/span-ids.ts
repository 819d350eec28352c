/**
 * Trace and span ids derived from what they name (a transcript id and a frame's seq), so sending
 * the same recording twice sends the same ids and a backend that keys spans by id (Phoenix) keeps
 * one copy. Not a cryptographic hash: the ids only need to be spread out and stable.
 */

/** 128 bits of a text, as four 32-bit words (cyrb128: murmur-style mixing, pure JS). */
function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

const hex = (words: number[]): string => words.map((w) => w.toString(16).padStart(8, "0")).join("");

/** OTLP rejects an all-zero id; one in 2^64 (2^128) hashes would be one. */
const nonZero = (id: string): string => (/^0+$/.test(id) ? `${id.slice(0, -1)}1` : id);

/** A 32-hex-digit trace id for `key`. */
export const traceIdOf = (key: string): string => nonZero(hex(hash128(`trace\0${key}`)));

/** A 16-hex-digit span id for `key`. */
export const spanIdOf = (key: string): string => nonZero(hex(hash128(`span\0${key}`).slice(0, 2)));
