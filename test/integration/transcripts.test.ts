/**
 * Transcripts: a real Gemini CLI session (fake API) recorded as it runs, read
 * back over the HTTP API, redacted, imported, shared.
 */
import { describe, expect, it } from "vitest";
import { parseTranscript, serialize, TRANSCRIPT_FORMAT } from "../../lib/contracts/transcript";
import { useGeminiRelay } from "../gemini-relay-setup";
import { TestClient } from "../relay-harness";

const SECRET = "sk-playground-test-0123456789";
const g = useGeminiRelay({ graceMs: 200 }, { ACP_TEST_SERVICE_TOKEN: SECRET });

async function http(method: string, route: string, opts: { body?: string; token?: string | null } = {}) {
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? "test-token" : opts.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${g.relay.url}${route}`, { method, headers, body: opts.body });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

async function recordGeminiSession(): Promise<string> {
  const c = await g.client();
  const agent = await c.start();
  expect(agent.transcriptId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{8}$/);
  await c.initialize();
  const sessionId = await c.newSession(g.workspace);
  g.api.script({ parts: [{ text: `The secret is ${SECRET}.` }] });
  await c.send({
    jsonrpc: "2.0",
    id: 3,
    method: "session/prompt",
    params: {
      sessionId,
      prompt: [{ type: "text", text: `remember ${SECRET}` }],
      _meta: { "api-key": "meta-key-value" },
    },
  });
  await c.response(3);
  await c.emit("agent:stop", {});
  return agent.transcriptId!;
}

describe("transcripts", () => {
  it("records a real Gemini session, redacted, and serves it back", async () => {
    const id = await recordGeminiSession();
    const list = (await http("GET", "/api/transcripts")).json().transcripts;
    const meta = list.find((m: { id: string }) => m.id === id);
    expect(meta).toMatchObject({ profile: "gemini", agentName: "gemini-cli", turns: 1, recording: false });
    expect(meta.redactions).toBeGreaterThanOrEqual(3);

    const res = await http("GET", `/api/transcripts/${id}`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(SECRET);
    expect(res.text).not.toContain("meta-key-value");
    const t = parseTranscript(res.text);
    expect(t.header.agent).toMatchObject({ profile: "gemini", args: ["--acp"], cwd: g.workspace });
    expect(t.events[0]).toMatchObject({ type: "lifecycle", event: "spawned" });
    expect(t.events.find((e) => e.type === "agent-info")).toMatchObject({
      agentInfo: { name: "gemini-cli" },
      protocolVersion: 1,
    });
    expect(t.events.at(-1)).toMatchObject({ type: "lifecycle", event: "exited" });
    expect(t.frames.map((f) => f.seq)).toEqual(t.frames.map((_, i) => i + 1));
    const prompt = t.frames.find((f) => f.method === "session/prompt" && f.kind === "request")!;
    expect((prompt.message as any).params.prompt[0].text).toBe("remember [REDACTED]");
    expect((prompt.message as any).params._meta["api-key"]).toBe("[REDACTED]");
    const chunk = t.frames.find((f) => f.raw.includes("agent_message_chunk"))!;
    expect(chunk.raw).toContain("The secret is [REDACTED].");
    expect(t.redactions).toBe(meta.redactions);
  });

  it("renames, downloads with the title, and deletes", async () => {
    const id = await recordGeminiSession();
    expect(
      (await http("PATCH", `/api/transcripts/${id}`, { body: JSON.stringify({ title: "  Demo run " }) })).json().title,
    ).toBe("Demo run");
    expect((await http("PATCH", `/api/transcripts/${id}`, { body: "{}" })).status).toBe(400);
    const download = await fetch(`${g.relay.url}/api/transcripts/${id}?download`, {
      headers: { authorization: "Bearer test-token" },
    });
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${id}.jsonl"`);
    expect(parseTranscript(await download.text()).header.title).toBe("Demo run");
    expect((await http("DELETE", `/api/transcripts/${id}`)).status).toBe(204);
    expect((await http("GET", `/api/transcripts/${id}`)).status).toBe(404);
  });

  it("imports a valid file and refuses broken ones naming the line, storing nothing", async () => {
    const id = await recordGeminiSession();
    const text = (await http("GET", `/api/transcripts/${id}`)).text;
    const before = (await http("GET", "/api/transcripts")).json().transcripts.length;

    const imported = await http("POST", "/api/transcripts", { body: text });
    expect(imported.status).toBe(201);
    expect(imported.json()).toMatchObject({ profile: "gemini", turns: 1 });

    const lines = text.split("\n");
    const cases: Array<[string, RegExp]> = [
      [lines.slice(0, 3).join("\n") + "\n{oops\n" + lines.slice(3).join("\n"), /^line 4: not JSON/],
      [text.slice(0, -20), /cut off/],
      [text.replace(/"version":"1\.\d+"/, '"version":"9.0"'), /line 1: unsupported transcript version 9.0/],
      ["", /empty file/],
      [serialize({ type: "lifecycle", ts: 1, event: "spawned" }), /line 1: the first line must be a header/],
      [`${JSON.stringify({ type: "header", format: TRANSCRIPT_FORMAT, version: "1.0" })}\n`, /line 1: header needs id/],
    ];
    for (const [body, message] of cases) {
      const res = await http("POST", "/api/transcripts", { body });
      expect(res.status).toBe(400);
      expect(res.json().error.code).toBe("invalid_transcript");
      expect(res.json().error.message).toMatch(message);
    }
    expect((await http("GET", "/api/transcripts")).json().transcripts.length).toBe(before + 1);
  });

  it("a share link reaches its transcript only: no other transcript, no API, no socket", async () => {
    const a = await recordGeminiSession();
    const b = await recordGeminiSession();
    const tokenA = (await http("POST", `/api/transcripts/${a}/share`)).json().shareToken as string;
    expect((await http("GET", `/api/share/${a}?token=${tokenA}`, { token: null })).status).toBe(200);
    expect((await http("GET", `/api/share/${b}?token=${tokenA}`, { token: null })).status).toBe(404);
    expect((await http("GET", `/api/share/${a}?token=wrong`, { token: null })).status).toBe(404);
    expect((await http("GET", `/api/share/..%2F..%2Fetc%2Fpasswd?token=${tokenA}`, { token: null })).status).toBe(404);
    expect((await http("GET", "/api/transcripts", { token: tokenA })).status).toBe(401);
    expect((await http("GET", `/api/transcripts/${a}`, { token: tokenA })).status).toBe(401);
    expect((await http("DELETE", `/api/transcripts/${a}`, { token: tokenA })).status).toBe(401);
    const c = new TestClient(g.relay.url, { token: tokenA });
    await expect(c.connected()).rejects.toThrow("unauthorized");
    c.close();
  });

  it("requires the token for every transcript route", async () => {
    for (const [method, route] of [
      ["GET", "/api/transcripts"],
      ["POST", "/api/transcripts"],
      ["GET", "/api/transcripts/x"],
      ["DELETE", "/api/transcripts/x"],
    ]) {
      expect((await http(method!, route!, { token: null })).status).toBe(401);
    }
  });

  it("searches every recording as it is written, follows renames and deletes, and measures latency", async () => {
    const id = await recordGeminiSession();
    const search = async (q: string) =>
      (await http("GET", `/api/search?q=${encodeURIComponent(q)}`)).json() as {
        hits: { transcript: { id: string; title: string }; seq: number; field: string; line: string }[];
      };
    // The index catches up in its own thread: wait for it, never for a fixed time.
    await expect
      .poll(async () => (await search("secret is")).hits.some((h) => h.transcript.id === id), { timeout: 10_000 })
      .toBe(true);
    const hit = (await search("secret is")).hits.find((h) => h.transcript.id === id)!;
    expect(hit).toMatchObject({ field: "message" });
    // What was redacted on disk is not found, and the line shown is the redacted one.
    expect(hit.line).toContain("[REDACTED]");
    expect((await search(SECRET)).hits).toEqual([]);
    const transcript = parseTranscript((await http("GET", `/api/transcripts/${id}`)).text);
    expect(transcript.frames.find((f) => f.seq === hit.seq)!.raw).toContain("The secret is");

    await http("PATCH", `/api/transcripts/${id}`, { body: JSON.stringify({ title: "Indexed run" }) });
    await expect
      .poll(async () => (await search("secret is")).hits.find((h) => h.transcript.id === id)?.transcript.title, {
        timeout: 10_000,
      })
      .toBe("Indexed run");

    const latency = (await http("GET", "/api/latency?agent=gemini-cli")).json();
    expect(latency.rows).toEqual(
      expect.arrayContaining([expect.objectContaining({ method: "session/prompt", dir: "to-agent", errors: 0 })]),
    );
    expect((await http("GET", "/api/search?q=")).json().error).toEqual({
      code: "invalid_query",
      message: "q: missing: give the words to search for",
    });
    expect((await http("GET", "/api/search?q=x&kind=nope")).status).toBe(400);
    expect((await http("GET", "/api/search?q=x", { token: null })).status).toBe(401);
    expect((await http("GET", "/api/latency", { token: "wrong" })).status).toBe(401);

    await http("DELETE", `/api/transcripts/${id}`);
    await expect
      .poll(async () => (await search("secret is")).hits.some((h) => h.transcript.id === id), { timeout: 10_000 })
      .toBe(false);
  });
});
