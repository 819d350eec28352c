// The few globals lib/ may use: browsers and Node both have them. Only lib/tsconfig.json
// reads this file (the root project gets them from the DOM and Node types).

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}

declare const performance: { now(): number };

type TimerHandle = { readonly __timer: unique symbol } | number;
declare function setTimeout(callback: () => void, ms?: number): TimerHandle;
declare function clearTimeout(handle: TimerHandle | undefined): void;

/** WHATWG URL (browsers and Node): only what lib/ uses. */
declare class URL {
  constructor(url: string, base?: string);
  hash: string;
  readonly origin: string;
  readonly pathname: string;
  readonly protocol: string;
  readonly searchParams: { delete(name: string): void };
  toString(): string;
}
