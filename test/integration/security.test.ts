/** The relay's trust boundary: token, Origin, Host, profiles. Refused means nothing spawned. */
import { request, type IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

let relay: TestRelay;
beforeAll(async () => {
  relay = await startTestRelay({
    profiles: {
      echo: {
        command: process.execPath,
        args: ["-e", "setInterval(()=>{},1e3)"],
        env: { ECHO_API_KEY: "profile-secret-value" },
      },
    },
  });
});
afterAll(async () => {
  await relay.close();
});

async function refused(auth: Record<string, unknown>, headers: Record<string, string> = {}, transport = "websocket") {
  const c = new TestClient(relay.url, auth, { transports: [transport], extraHeaders: headers });
  try {
    await c.connected();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  } finally {
    c.close();
  }
}

function get(
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request(`${relay.url}${path}`, { headers, method: body === undefined ? "GET" : "POST" }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, body: text, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("socket handshake", () => {
  it("refuses a missing or wrong token with 'unauthorized'", async () => {
    expect(await refused({})).toBe("unauthorized");
    expect(await refused({ token: "wrong" })).toBe("unauthorized");
    expect(await refused({ token: "test-token".slice(0, -1) })).toBe("unauthorized");
    expect(await refused({ token: 42 })).toBe("unauthorized");
    expect(relay.server.relay.sessions.size).toBe(0);
  });

  it("refuses a foreign Origin and a non-loopback Host, even with the token", async () => {
    expect(await refused({ token: "test-token" }, { Origin: "http://evil.example" })).toBe("websocket error");
    expect(await refused({ token: "test-token" }, { Origin: "http://evil.example" }, "polling")).toBe("xhr poll error");
    expect(await refused({ token: "test-token" }, { Host: "evil.example:80" })).toBe("websocket error");
    // Node's polling transport cannot set Host: send the handshake request by hand.
    const poll = "/socket.io/?EIO=4&transport=polling";
    expect((await get(poll)).status).toBe(200);
    expect((await get(poll, { Host: "evil.example" })).status).toBe(403);
    expect((await get(poll, { Origin: "http://evil.example" })).status).toBe(403);
    expect(relay.server.relay.sessions.size).toBe(0);
  });

  it("checks Host and Origin on every request, not only the handshake: a poll with a valid sid is refused", async () => {
    const handshake = await get("/socket.io/?EIO=4&transport=polling");
    const { sid } = JSON.parse(handshake.body.slice(1)) as { sid: string };
    const poll = `/socket.io/?EIO=4&transport=polling&sid=${sid}`;
    expect((await get(poll, { Host: "evil.example" }, "40")).status).toBe(403);
    expect((await get(poll, { Origin: "http://evil.example" }, "40")).status).toBe(403);
    // The same request from the right Host goes through.
    expect(await get(poll, {}, "40")).toMatchObject({ status: 200, body: "ok" });
  });

  it("closes a connection that fails to authenticate at once, and one that never tries within seconds", async () => {
    const engine = relay.server.relay.io.engine as unknown as { clients: Record<string, unknown> };
    const c = new TestClient(relay.url, { token: "wrong" });
    await expect(c.connected()).rejects.toThrow("unauthorized");
    const refusedId = c.socket.io.engine.id;
    await waitUntil(() => !(refusedId in engine.clients), "the refused connection closed", 2_000);
    c.close();
    // A bare handshake (what an <img> tag can open) is dropped without ever connecting.
    const { sid } = JSON.parse((await get("/socket.io/?EIO=4&transport=polling")).body.slice(1)) as { sid: string };
    expect(sid in engine.clients).toBe(true);
    await waitUntil(() => !(sid in engine.clients), "the idle handshake closed", 10_000);
  });

  it("accepts the right token from the server's own origin", async () => {
    const origin = relay.url;
    expect(await refused({ token: "test-token" }, { Origin: origin })).toBeUndefined();
  });

  it("refuses an unknown profile: the browser can never name a command", async () => {
    const c = new TestClient(relay.url, { token: "test-token" });
    await c.connected();
    expect(await c.emit("agent:start", { profile: "../../bin/sh" })).toMatchObject({
      ok: false,
      error: { code: "unknown_profile" },
    });
    expect(await c.emit("agent:start", { profile: "echo", command: "/bin/sh" })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload" },
    });
    expect(await c.emit("agent:start", { profile: "echo", options: { args: ["-c", "id"] } })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload", message: 'profile "echo" has no option "args"' },
    });
    expect(await c.emit("agent:start", { profile: "gemini", options: { model: "x; rm -rf /" } })).toMatchObject({
      ok: false,
    });
    // A value that looks like a flag never becomes one.
    expect(await c.emit("agent:start", { profile: "gemini", options: { model: "--version" } })).toEqual({
      ok: false,
      error: { code: "invalid_payload", message: 'option "model" may not start with "-"' },
    });
    c.close();
  });
});

describe("HTTP API", () => {
  it("needs the bearer token", async () => {
    expect((await get("/api/info")).status).toBe(401);
    expect((await get("/api/info", { Authorization: "Bearer nope" })).status).toBe(401);
    const ok = await get("/api/info", { Authorization: "Bearer test-token" });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).profiles.map((p: { name: string }) => p.name)).toEqual([
      "gemini",
      "gemini-offline",
      "echo",
      "replay:demo-gemini",
    ]);
    // Profile env values stay on the server (a missing-credentials note may name a variable, never a value).
    expect(ok.body).not.toContain("profile-secret-value");
    expect(ok.body).not.toContain("ECHO_API_KEY");
  });

  it("every page carries a Content-Security-Policy with a fresh nonce and no other origin", async () => {
    const [a, b] = await Promise.all([get("/"), get("/transcripts")]);
    const policy = a.headers["content-security-policy"] as string;
    expect(policy).toMatch(/^default-src 'self'; script-src 'self' 'nonce-[\w+/=]{24}' 'strict-dynamic';/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/https?:|unsafe-eval|\*/);
    expect(policy.match(/'nonce-[^']+'/g)).toHaveLength(1);
    expect(b.headers["content-security-policy"]).not.toBe(policy);
    // The API answers JSON, not pages.
    expect((await get("/api/info", { Authorization: "Bearer test-token" })).headers["content-security-policy"]).toBe(
      undefined,
    );
  });

  it("refuses foreign Host and Origin before anything else", async () => {
    expect((await get("/api/info", { Authorization: "Bearer test-token", Host: "evil.example" })).status).toBe(403);
    expect((await get("/", { Host: "rebind.example:3000" })).status).toBe(403);
    expect((await get("/api/info", { Authorization: "Bearer test-token", Origin: "http://evil.example" })).status).toBe(
      403,
    );
  });
});
