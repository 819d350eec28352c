/**
 * The model APIs' HTTP server against local neighbours (issue #34): a loopback Host without an
 * Origin only, the offline model's per-run secret path, and a capped body whose rest is never read.
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_MODEL_BODY_BYTES, type FakeModelApi } from "./http";
import { startOpenAiApi } from "./openai-api";

let api: FakeModelApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** The offline model's shape of server: no controls, a secret path. */
const offline = () => startOpenAiApi(undefined, 0, { controls: false, secret: true });
const chat = JSON.stringify({ messages: [{ role: "user", content: "hi" }] });

interface Answer {
  status: number;
  body: string;
}

/** A raw request (fetch would not let a test set Host), answered or refused. */
function send(url: string, headers: Record<string, string> = {}, body = chat): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the offline model's API", () => {
  it("answers only under its secret path: the URL the agents are given", async () => {
    api = await offline();
    const { origin, pathname } = new URL(api.url);
    expect(pathname).toMatch(/^\/[0-9a-f]{32}$/);
    expect((await send(`${api.url}/v1/chat/completions`)).status).toBe(200);
    for (const path of [
      "/v1/chat/completions",
      `/${"0".repeat(32)}/v1/chat/completions`,
      `${pathname}x/v1/chat/completions`,
    ]) {
      const res = await send(`${origin}${path}`);
      expect(res.status, path).toBe(403);
      expect(res.body, path).toMatch(/secret/);
    }
  });

  it("refuses a Host that is not loopback (DNS rebinding) and any Origin (a web page)", async () => {
    api = await offline();
    const url = `${api.url}/v1/chat/completions`;
    expect((await send(url, { host: `localhost:${api.port}` })).status).toBe(200);
    const rebound = await send(url, { host: `attacker.example:${api.port}` });
    expect(rebound).toMatchObject({ status: 403, body: expect.stringContaining("Host") });
    const page = await send(url, { origin: "http://127.0.0.1:3000" });
    expect(page).toMatchObject({ status: 403, body: expect.stringContaining("Origin") });
  });

  it("refuses a declared body over the cap at once, with a clear message", async () => {
    api = await offline();
    const res = await send(
      `${api.url}/v1/chat/completions`,
      {
        "content-length": String(MAX_MODEL_BODY_BYTES + 1),
      },
      "",
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.message).toBe("request body over 4 MiB, the model API's limit");
  });

  it("stops reading a streamed body at the cap: the rest is never read", async () => {
    api = await offline();
    const total = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, "a");
    const out = await new Promise<{ status?: number; written: number }>((resolve) => {
      let written = 0;
      let status: number | undefined;
      const req = request(`${api!.url}/v1/chat/completions`, { method: "POST" }, (res) => {
        status = res.statusCode;
        res.resume();
        res.on("end", () => resolve({ status, written }));
      });
      // The server closes the connection: the upload ends in an error, the answer came first.
      req.on("error", () => resolve({ status, written }));
      const pump = () => {
        while (written < total) {
          written += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        req.end();
      };
      pump();
    });
    expect(out.status).toBe(413);
    expect(out.written).toBeLessThan(total);
    // And it still serves the next request.
    expect((await send(`${api.url}/v1/chat/completions`)).status).toBe(200);
  });
});

describe("the tests' fake APIs", () => {
  it("keep their plain URL and controls, behind the same Host, Origin and body rules", async () => {
    api = await startOpenAiApi();
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await send(`${api.url}/v1/chat/completions`)).status).toBe(200);
    expect((await send(`${api.url}/__fake/script`, { origin: "http://evil.example" }, "{}")).status).toBe(403);
    expect((await send(`${api.url}/v1/chat/completions`, { host: "evil.example" })).status).toBe(403);
  });
});
