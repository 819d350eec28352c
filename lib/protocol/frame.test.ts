import { describe, expect, it } from "vitest";
import { classifyLine, idKey } from "./frame";

describe("classifyLine", () => {
  it("classifies requests, notifications and responses", () => {
    expect(classifyLine('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}')).toMatchObject({
      kind: "request",
      id: 1,
      method: "initialize",
    });
    expect(classifyLine('{"jsonrpc":"2.0","method":"session/update","params":{}}')).toMatchObject({
      kind: "notification",
      method: "session/update",
    });
    expect(classifyLine('{"jsonrpc":"2.0","id":"a","result":null}')).toMatchObject({ kind: "response", id: "a" });
    expect(classifyLine('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}')).toMatchObject({
      kind: "response",
      id: null,
    });
  });

  it("flags what is not JSON-RPC, with a reason", () => {
    expect(classifyLine("Loaded cached credentials.")).toMatchObject({ kind: "invalid" });
    expect(classifyLine("Loaded cached credentials.").error).toMatch(/^not JSON/);
    expect(classifyLine("[1,2]")).toMatchObject({ kind: "invalid", error: "JSON-RPC batches are not part of ACP" });
    expect(classifyLine("42")).toMatchObject({ kind: "invalid", error: "not a JSON-RPC object" });
    expect(classifyLine('{"id":1,"method":"x"}')).toMatchObject({ kind: "invalid", id: 1 });
    expect(classifyLine('{"jsonrpc":"2.0","id":{},"method":"x"}').kind).toBe("invalid");
    expect(classifyLine('{"jsonrpc":"2.0","method":7}').kind).toBe("invalid");
    expect(classifyLine('{"jsonrpc":"2.0","id":1}').kind).toBe("invalid");
    expect(classifyLine('{"jsonrpc":"2.0","id":1,"result":1,"error":{}}').kind).toBe("invalid");
  });

  it("keeps the parsed message of an invalid but parseable line", () => {
    expect(classifyLine('{"id":1}').message).toEqual({ id: 1 });
  });
});

describe("idKey", () => {
  it('keeps 1 and "1" apart, and keys an absent id as null', () => {
    expect(idKey(1)).not.toBe(idKey("1"));
    expect(idKey("n:1")).not.toBe(idKey(1));
    expect(idKey(undefined)).toBe(idKey(null));
    expect(idKey(null)).not.toBe(idKey("null"));
  });
});
