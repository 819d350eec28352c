/**
 * Test harness: HAProxy from Debian's package in front of relay instances, running docs/haproxy.cfg
 * (the how-to's file) with its addresses from the environment: a free port on 127.0.0.1 in front,
 * the instances behind. Runs in the foreground (`-db`) as a child in its own process group, which
 * is killed after.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import path from "node:path";
import { freePort, skipUnlessInstalled, spawnGroup } from "./server-process";

export const HAPROXY = "/usr/sbin/haproxy";
export const HAPROXY_CFG = path.resolve(import.meta.dirname, "../docs/haproxy.cfg");

export interface TestBalancer {
  url: string;
  /** What HAProxy wrote to stderr (its warnings and alerts), for a failing test's message. */
  log(): string;
  stop(): Promise<void>;
}

/** Why the balancer tests are skipped here, or undefined when they run; in CI its absence is a failure. */
export function haproxySkipReason(): string | undefined {
  return skipUnlessInstalled(
    existsSync(HAPROXY),
    `${HAPROXY} is missing`,
    "haproxy is not installed (apt-get install haproxy): skipping the balancer tests",
  );
}

/**
 * Starts HAProxy in front of `a` and `b` (host:port each) and resolves once each instance answers
 * through it, reached by its affinity cookie (HAProxy's first health checks may still be running).
 */
export async function startBalancer(
  a: string,
  b: string,
  token: string,
  timeoutMs = 30_000,
  /** TLS as the how-to says: `ssl crt PEM` added to the file's bind line (a copy written in `tls.dir`). */
  tls?: { pem: string; dir: string },
): Promise<TestBalancer> {
  const port = await freePort();
  const env = { ...process.env, PLAYGROUND_BIND: `127.0.0.1:${port}`, RELAY_A: a, RELAY_B: b };
  let cfg = HAPROXY_CFG;
  if (tls) {
    cfg = path.join(tls.dir, "haproxy.cfg");
    const bind = '  bind "${PLAYGROUND_BIND}"\n';
    const text = readFileSync(HAPROXY_CFG, "utf8");
    if (!text.includes(bind)) throw new Error(`no bind line in ${HAPROXY_CFG}`);
    writeFileSync(cfg, text.replace(bind, `  bind "\${PLAYGROUND_BIND}" ssl crt ${tls.pem}\n`));
  }
  const { child, stop } = spawnGroup(HAPROXY, ["-db", "-f", cfg], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const url = `${tls ? "https" : "http"}://127.0.0.1:${port}`;
  try {
    const until = Date.now() + timeoutMs;
    for (const server of ["a", "b"]) {
      for (;;) {
        if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}): ${stderr}`);
        const ok = await request(`${url}/api/info`, {
          headers: { authorization: `Bearer ${token}`, cookie: `SERVERID=${server}` },
        }).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) break;
        if (Date.now() > until) throw new Error(`instance ${server} did not answer through haproxy: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, log: () => stderr, stop };
}

/**
 * An HTTP(S) request that accepts a self-signed certificate (the TLS balancer's): its status,
 * headers and body.
 */
export function request(
  url: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith("https:") ? https.request : http.request;
    const req = send(url, { method, headers, rejectUnauthorized: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
