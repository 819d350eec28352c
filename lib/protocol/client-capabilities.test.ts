import { expect, it } from "vitest";
import {
  capabilityFor,
  DEFAULT_CLIENT_CAPABILITIES,
  notAdvertised,
  TERMINAL_AUTH_META,
  withTerminalAuth,
} from "./client-capabilities";
import { SERVED_METHODS } from "../contracts/policies";

it("withTerminalAuth sets and clears the flag, keeping other _meta keys and the defaults untouched", () => {
  const on = withTerminalAuth(DEFAULT_CLIENT_CAPABILITIES, true);
  expect(on).toEqual({ ...DEFAULT_CLIENT_CAPABILITIES, _meta: { [TERMINAL_AUTH_META]: true } });
  expect(DEFAULT_CLIENT_CAPABILITIES._meta).toBeUndefined();
  expect(withTerminalAuth(on, false)).toEqual(DEFAULT_CLIENT_CAPABILITIES);
  expect(withTerminalAuth({ _meta: { other: 1, "terminal-auth": true } }, false)).toEqual({ _meta: { other: 1 } });
});

it("every request the relay carries out needs a capability; permissions and elicitation need none here", () => {
  for (const m of SERVED_METHODS) expect(capabilityFor(m), m).toBeDefined();
  expect(capabilityFor("terminal/create")).toBe("terminal");
  expect(capabilityFor("fs/write_text_file")).toBe("fs.writeTextFile");
  expect(capabilityFor("session/request_permission")).toBeUndefined();
  expect(capabilityFor("toString")).toBeUndefined();
});

it("notAdvertised refuses what the client's initialize did not advertise as true, and nothing else", () => {
  // Nothing seen yet: nothing advertised.
  expect(notAdvertised("fs/read_text_file", undefined)).toMatchObject({
    code: -32601,
    message: expect.stringContaining("clientCapabilities.fs.readTextFile"),
    data: { method: "fs/read_text_file", capability: "clientCapabilities.fs.readTextFile" },
  });
  expect(notAdvertised("terminal/create", {})).toMatchObject({ code: -32601 });
  expect(notAdvertised("terminal/create", { terminal: false })).toMatchObject({ code: -32601 });
  expect(notAdvertised("terminal/create", { terminal: "true" })).toMatchObject({ code: -32601 });
  expect(notAdvertised("terminal/release", { terminal: true })).toBeUndefined();
  expect(notAdvertised("fs/write_text_file", { fs: { readTextFile: true } })).toMatchObject({ code: -32601 });
  expect(notAdvertised("fs/write_text_file", { fs: true })).toMatchObject({ code: -32601 });
  for (const m of SERVED_METHODS) expect(notAdvertised(m, DEFAULT_CLIENT_CAPABILITIES), m).toBeUndefined();
  expect(notAdvertised("session/request_permission", undefined)).toBeUndefined();
  expect(notAdvertised("craft/drainMidTurnQueue", undefined)).toBeUndefined();
});
