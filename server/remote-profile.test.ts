import { describe, expect, it } from "vitest";
import { expandHeaders, isLoopbackHost, parseRemoteProfile } from "./remote-profile";

describe("URL profiles", () => {
  it("accepts TLS anywhere and plain text on loopback only", () => {
    expect(parseRemoteProfile({ url: "https://a.example/acp", transport: "http" })).toEqual({
      url: "https://a.example/acp",
      transport: "http",
      headers: {},
    });
    expect(parseRemoteProfile({ url: "wss://a.example/acp", transport: "websocket" }).transport).toBe("websocket");
    for (const url of [
      "http://localhost:1/acp",
      "http://127.0.0.1:1/acp",
      "http://127.8.0.1/acp",
      "http://[::1]:8/acp",
    ])
      expect(parseRemoteProfile({ url, transport: "http" }).url).toBe(url);
    for (const url of ["http://a.example/acp", "http://10.0.0.1/acp", "http://127.0.0.1.nip.io/acp", "http://[::2]/"])
      expect(() => parseRemoteProfile({ url, transport: "http" })).toThrow(/unencrypted/);
    expect(parseRemoteProfile({ url: "ws://a.example/acp", transport: "websocket", allowInsecure: true }).url).toBe(
      "ws://a.example/acp",
    );
  });

  it("refuses mismatched schemes, credentials in the URL, bad headers and unknown fields", () => {
    expect(() => parseRemoteProfile({ url: "wss://a.example/", transport: "http" })).toThrow(/https:\/\//);
    expect(() => parseRemoteProfile({ url: "https://a.example/", transport: "websocket" })).toThrow(/wss:\/\//);
    expect(() => parseRemoteProfile({ url: "https://a.example/", transport: "sse" })).toThrow(/transport/);
    expect(() => parseRemoteProfile({ url: "https://u:p@a.example/", transport: "http" })).toThrow(/credentials/);
    expect(() => parseRemoteProfile({ url: "not a url", transport: "http" })).toThrow(/not a valid URL/);
    expect(() =>
      parseRemoteProfile({ url: "https://a.example/", transport: "http", headers: { "X-A": "a\r\nX-B: b" } }),
    ).toThrow(/single-line/);
    expect(() => parseRemoteProfile({ url: "https://a.example/", transport: "http", headers: { "a b": "x" } })).toThrow(
      /header name/,
    );
    expect(() => parseRemoteProfile({ url: "https://a.example/", transport: "http", command: "sh" })).toThrow(
      /unknown field/,
    );
    expect(() => parseRemoteProfile({ url: "https://a.example/", transport: "http", allowInsecure: "yes" })).toThrow(
      /allowInsecure/,
    );
  });

  it("declares clientCapabilities like a command profile (absent flags false), checked as strictly", () => {
    const raw = { url: "https://a.example/acp", transport: "http", clientCapabilities: { fs: { readTextFile: true } } };
    expect(parseRemoteProfile(raw).clientCapabilities).toEqual({
      fs: { readTextFile: true, writeTextFile: false },
      terminal: false,
    });
    expect(parseRemoteProfile({ url: "https://a.example/acp", transport: "http" })).not.toHaveProperty(
      "clientCapabilities",
    );
    expect(() =>
      parseRemoteProfile({ url: "https://a.example/", transport: "http", clientCapabilities: { terminal: "yes" } }),
    ).toThrow(/clientCapabilities\.terminal/);
    expect(() =>
      parseRemoteProfile({ url: "https://a.example/", transport: "http", clientCapabilities: { shell: true } }),
    ).toThrow(/unknown field/);
  });

  it("fills ${VAR} from the environment at connect time and names an unset one", () => {
    const headers = { Authorization: "Bearer ${TOKEN}", "X-Team": "${TEAM}-${TEAM}", Plain: "$TOKEN" };
    expect(expandHeaders(headers, { TOKEN: "t0k", TEAM: "core" })).toEqual({
      Authorization: "Bearer t0k",
      "X-Team": "core-core",
      Plain: "$TOKEN",
    });
    expect(() => expandHeaders(headers, { TEAM: "core" })).toThrow(/needs \$\{TOKEN\}/);
    expect(() => expandHeaders(headers, { TOKEN: "a\nb", TEAM: "x" })).toThrow(/line break/);
  });

  it("knows loopback hosts", () => {
    expect(["localhost", "LOCALHOST", "127.0.0.1", "[::1]"].map(isLoopbackHost)).toEqual([true, true, true, true]);
    expect(["localhost.example", "128.0.0.1", "0.0.0.0", "::1"].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("URL profile errors name the field", () => {
  it.each([
    [{ url: "https://a.example/", transport: "sse" }, /^transport: must be "http" or "websocket"/],
    [{ url: 5, transport: "http" }, /^url: expected string/],
    [{ url: "http://a.example/", transport: "http" }, /^url: http:\/\/ to a\.example is unencrypted/],
    [{ url: "https://a.example/", transport: "http", headers: { "a b": "x" } }, /^headers\.a b: bad header name/],
    [{ url: "https://a.example/", transport: "http", headers: { A: 1 } }, /^headers\.A: must be a single-line string/],
    [{ url: "https://a.example/", transport: "http", allowInsecure: "yes" }, /^allowInsecure: expected boolean/],
    [{ url: "https://a.example/", transport: "http", command: "sh" }, /^unknown field: command/],
  ])("%j", (raw, message) => {
    expect(() => parseRemoteProfile(raw)).toThrow(message);
  });
});
