import { expect, it } from "vitest";
import { DEFAULT_CLIENT_CAPABILITIES, TERMINAL_AUTH_META, withTerminalAuth } from "./client-capabilities";

it("withTerminalAuth sets and clears the flag, keeping other _meta keys and the defaults untouched", () => {
  const on = withTerminalAuth(DEFAULT_CLIENT_CAPABILITIES, true);
  expect(on).toEqual({ ...DEFAULT_CLIENT_CAPABILITIES, _meta: { [TERMINAL_AUTH_META]: true } });
  expect(DEFAULT_CLIENT_CAPABILITIES._meta).toBeUndefined();
  expect(withTerminalAuth(on, false)).toEqual(DEFAULT_CLIENT_CAPABILITIES);
  expect(withTerminalAuth({ _meta: { other: 1, "terminal-auth": true } }, false)).toEqual({ _meta: { other: 1 } });
});
