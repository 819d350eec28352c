import { describe, expect, it } from "vitest";
import { Alternatives, readJsonLine } from "./json-readings";

/** A read value as plain JSON, Alternatives shown as `{ alternatives: [...] }`. */
const plain = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (_k, x: unknown) => (x instanceof Alternatives ? { alternatives: x.values } : x)));

describe("readJsonLine", () => {
  it("reads what JSON.parse reads, escapes decoded", () => {
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","a":[1,-2.5e3,true,false,null,{}]}}',
      '"s\\u00e9ssion\\/new \\"q\\" \\\\ \\b\\f\\n\\r\\t"',
      "[]",
      " \t[ [ ] , { } ]\r",
    ];
    for (const line of lines) expect(readJsonLine(line)).toEqual({ values: [JSON.parse(line)] });
    expect(readJsonLine('{"m":"session\\u002fnew"}').values).toEqual([{ m: "session/new" }]);
  });

  it("keeps every copy of a repeated key, wherever it is", () => {
    const read = readJsonLine('{"method":"a","params":{"cwd":"/x","cwd":"/y","cwd":"/z"},"method":"b"}');
    expect(plain(read.values)).toEqual([
      { method: { alternatives: ["a", "b"] }, params: { cwd: { alternatives: ["/x", "/y", "/z"] } } },
    ]);
    // A key spelled with escapes is the same key.
    expect(plain(readJsonLine('{"cwd":"/x","c\\u0077d":"/y"}').values)).toEqual([
      { cwd: { alternatives: ["/x", "/y"] } },
    ]);
  });

  it("accepts what some readers accept: a byte-order mark, NaN and Infinity, trailing commas, several values", () => {
    expect(readJsonLine('\ufeff{"a":NaN,"b":-Infinity,"c":[1,],}').values).toEqual([{ a: NaN, b: -Infinity, c: [1] }]);
    expect(readJsonLine('{"a":1} {"b":2}{"c":3}').values).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
  });

  it("keeps the values read before the line stops being JSON, and says where", () => {
    expect(readJsonLine('{"a":1} {"b":2} not json')).toEqual({
      values: [{ a: 1 }, { b: 2 }],
      error: "expected a value at character 16",
    });
    for (const bad of [
      '{"method":"session/new"',
      '{"a" 1}',
      '{"a":1 "b":2}',
      '"\\x"',
      '"\\u12"',
      "[1}",
      '{"a":]',
      "{a:1}",
      '"open',
    ])
      expect(readJsonLine(bad).error, bad).toBeDefined();
  });

  it("takes a __proto__ key as a key, and any depth without overflowing", () => {
    const [value] = readJsonLine('{"__proto__":{"x":1}}').values as [Record<string, unknown>];
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    const depth = 300_000;
    const deep = readJsonLine(`{"a":${"[".repeat(depth)}${"]".repeat(depth)},"b":"end"}`);
    expect(deep.error).toBeUndefined();
    expect((deep.values[0] as Record<string, unknown>).b).toBe("end");
  });

  it("stays linear on a string of many escapes", () => {
    const line = JSON.stringify("\n".repeat(200_000) + "x");
    expect(readJsonLine(line).values).toEqual([JSON.parse(line)]);
  });
});
