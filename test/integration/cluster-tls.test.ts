/**
 * TLS at the balancer, as docs/scaling.md says: docs/haproxy.cfg with `ssl crt` added to its bind
 * line (a self-signed certificate made here) in front of a relay. Through it a page signs in over
 * HTTPS and its sign-in cookie is `Secure`: the file tells the instance the browser came over TLS
 * (`X-Forwarded-Proto`), which it cannot see itself behind the balancer.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haproxySkipReason, request, startBalancer, type TestBalancer } from "../haproxy";
import { startTestRelay, TestClient, type TestRelay } from "../relay-harness";

const skip = haproxySkipReason() ?? (existsSync("/usr/bin/openssl") ? undefined : "openssl is not installed");
const TOKEN = "test-token";
const fixture = path.resolve(import.meta.dirname, "../fixtures/leaky-agent.mjs");

describe.skipIf(skip !== undefined)("HAProxy terminating TLS in front of a relay", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-tls-"));
  let relay: TestRelay | undefined;
  let lb: TestBalancer | undefined;

  beforeAll(async () => {
    const [key, cert, pem] = ["key.pem", "cert.pem", "playground.pem"].map((f) => path.join(dir, f));
    execFileSync(
      "/usr/bin/openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-keyout",
        key!,
        "-out",
        cert!,
      ],
      { stdio: "pipe" },
    );
    // HAProxy reads the certificate and its key from one file.
    writeFileSync(pem!, readFileSync(cert!, "utf8") + readFileSync(key!, "utf8"));
    relay = await startTestRelay({ profiles: { leaky: { command: process.execPath, args: [fixture], env: {} } } });
    const host = new URL(relay.url).host;
    lb = await startBalancer(host, host, TOKEN, 30_000, { pem: pem!, dir });
  }, 60_000);
  afterAll(async () => {
    await lb?.stop();
    await relay?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("signs a page in over HTTPS with a Secure cookie", async () => {
    expect(lb!.url).toMatch(/^https:/);
    const res = await request(`${lb!.url}/api/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: TOKEN }),
    });
    expect(res.status, res.body).toBe(204);
    // The balancer adds its own (SERVERID): the relay's is the sign-in one.
    const cookie = (res.headers["set-cookie"] ?? []).find((c) => c.startsWith("acp_playground_signin="));
    expect(cookie?.split("; "), String(res.headers["set-cookie"])).toContain("Secure");
  });

  it("answers a watch link made through it with an https link", async () => {
    const owner = new TestClient(relay!.url, { token: TOKEN });
    try {
      await owner.connected();
      await owner.start({ profile: "leaky" });
      const res = await request(`${lb!.url}/api/watch`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ clientId: owner.clientId }),
      });
      expect(res.status, res.body).toBe(201);
      expect((JSON.parse(res.body) as { url: string }).url).toMatch(
        new RegExp(`^https://${new URL(lb!.url).host}/watch/[\\w-]{32}$`),
      );
    } finally {
      owner.close();
    }
  });
});
