/**
 * `acp-playground validate` on real recordings: a tapped conversation of the ACP SDK's
 * example agent with the SDK's own client (and the raw captures of both sides of it),
 * then the same made broken, and a capture of a deliberately misbehaving stub agent.
 */
import { execa } from "execa";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin/acp-playground.mjs");
const stub = path.join(root, "test/fixtures/stub-agent.mjs");
const exampleAgent = path.join(root, "test/agents/node_modules/@agentclientprotocol/sdk/dist/examples/agent.js");

const dir = mkdtempSync(path.join(tmpdir(), "acp-validate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const validate = (...args: string[]) => execa(process.execPath, [bin, "validate", ...args], { reject: false });

let transcript: string;
let clientCapture: string;
let agentCapture: string;

/** One turn of the SDK example agent, driven by the SDK's client through `acp-playground tap` (recording on its own). */
beforeAll(async () => {
  const data = path.join(dir, "data");
  const tap = execa(process.execPath, [bin, "tap", "--", process.execPath, exampleAgent], {
    cwd: root,
    env: { ACP_PLAYGROUND_DATA: data, ACP_PLAYGROUND_URL: "", ACP_PLAYGROUND_TOKEN: "", ACP_PLAYGROUND_CONFIG: "" },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    buffer: false,
    reject: false,
  });
  const sent: Buffer[] = [];
  const got: Buffer[] = [];
  const toAgent = new Writable({
    write(chunk: Buffer, _enc, done) {
      sent.push(chunk);
      tap.stdin.write(chunk, done);
    },
    final(done) {
      tap.stdin.end();
      done();
    },
  });
  tap.stdout.on("data", (chunk: Buffer) => got.push(chunk));
  const fromAgent = new Readable({ read() {} });
  tap.stdout.on("data", (chunk: Buffer) => fromAgent.push(chunk));
  tap.stdout.on("end", () => fromAgent.push(null));
  const stream = ndJsonStream(Writable.toWeb(toAgent), Readable.toWeb(fromAgent) as ReadableStream<Uint8Array>);
  const result = await client({ name: "validate-test" })
    .onRequest(methods.client.session.requestPermission, ({ params }) => ({
      outcome: { outcome: "selected", optionId: params.options[0]!.optionId },
    }))
    .connectWith(stream, async (ctx) => {
      await ctx.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const session = await ctx.buildSession(root).start();
      const reply = session.readText();
      const prompt = await session.prompt("Edit the config");
      await reply;
      return prompt.stopReason;
    });
  expect(result).toBe("end_turn");
  tap.stdin.end();
  expect((await tap).exitCode).toBe(0);
  const files = readdirSync(path.join(data, "transcripts")).filter((f) => f.endsWith(".jsonl"));
  expect(files).toHaveLength(1);
  transcript = path.join(data, "transcripts", files[0]!);
  clientCapture = path.join(dir, "client.ndjson");
  agentCapture = path.join(dir, "agent.ndjson");
  writeFileSync(clientCapture, Buffer.concat(sent));
  writeFileSync(agentCapture, Buffer.concat(got));
}, 60_000);

describe("acp-playground validate", () => {
  it("finds the SDK's example agent and client conformant: the tapped transcript and each side's raw capture", async () => {
    const res = await validate(transcript, clientCapture, agentCapture);
    expect(res.stderr).toBe("");
    expect(res.stdout).toContain("(tapped, ");
    expect(res.stdout).toMatch(/client\.ndjson \(capture, \d+ frames\): CONFORMANT/);
    expect(res.stdout).toMatch(/agent\.ndjson \(capture, \d+ frames\): CONFORMANT/);
    expect(res.stdout).toContain("3 files: CONFORMANT");
    expect(res.exitCode).toBe(0);
    const json = JSON.parse((await validate("--format", "json", transcript)).stdout);
    // --json is --format json, as in probe and compare.
    expect(JSON.parse((await validate("--json", transcript)).stdout)).toEqual(json);
    const byId = Object.fromEntries(
      json.files[0].requirements.map((r: { id: string; status: string }) => [r.id, r.status]),
    );
    // Both sides recorded from initialize on: pairing, sessions, tool calls and turns are all judged.
    for (const id of ["PG-REC-003", "PG-REC-004", "PG-REC-009", "PG-REC-010", "PG-REC-011"])
      expect(byId[id], id).toBe("pass");
  });

  it("fails a transcript made broken, naming each requirement and frame, in text, JSON and JUnit", async () => {
    const lines = readFileSync(transcript, "utf8").trimEnd().split("\n");
    const frames = lines.filter((l) => l.startsWith('{"type":"frame"')).map((l) => JSON.parse(l) as { seq: number });
    let seq = frames.at(-1)!.seq;
    const extra = [
      { dir: "from-agent", raw: '{"jsonrpc":"2.0","id":4242,"result":{}}' },
      {
        dir: "from-agent",
        raw: '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"ghost","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"boo"}}}}',
      },
    ].map((f) => JSON.stringify({ type: "frame", seq: ++seq, ts: Date.now(), kind: "notification", ...f }));
    const broken = path.join(dir, "broken.jsonl");
    writeFileSync(broken, `${[...lines, ...extra].join("\n")}\n`);
    const text = await validate(broken);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toMatch(new RegExp(`FAIL +PG-REC-004[^]*\\[frame ${seq - 1}\\]`));
    expect(text.stdout).toMatch(new RegExp(`FAIL +PG-REC-009[^]*"ghost"[^]*\\[frame ${seq}\\]`));
    expect(text.stdout).toContain("decided by: PG-REC-004 fail, PG-REC-009 fail");
    const junit = await validate("--format", "junit", broken);
    expect(junit.exitCode).toBe(1);
    expect(junit.stdout).toMatch(/<testsuites [^>]*failures="2"/);
    const out = path.join(dir, "report.json");
    const json = await validate("--format", "json", "-o", out, broken);
    expect(json.stdout).toBe(`NOT CONFORMANT: wrote ${out}`);
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({ verdict: "NOT CONFORMANT" });
  });

  it("fails a capture of a stub agent whose stdout is not all UTF-8 JSON-RPC", async () => {
    const agent = await execa(process.execPath, [stub, "bytes"], { input: "", encoding: "buffer", reject: false });
    const capture = path.join(dir, "stub.ndjson");
    writeFileSync(capture, agent.stdout);
    const res = await validate(capture);
    expect(res.exitCode).toBe(1);
    expect(res.stdout).toMatch(/FAIL +PG-REC-001[^]*not valid UTF-8[^]*\[frame 2\]/);
  });

  it("refuses bad arguments and unreadable files with their exit codes", async () => {
    expect((await validate()).exitCode).toBe(2);
    expect((await validate("--format", "xml", transcript)).exitCode).toBe(2);
    const missing = await validate(path.join(dir, "none.jsonl"));
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toContain("cannot read");
    const badTranscript = path.join(dir, "bad.jsonl");
    writeFileSync(badTranscript, `${readFileSync(transcript, "utf8").split("\n")[0]}\n{oops\n`);
    const bad = await validate(badTranscript);
    expect(bad.exitCode).toBe(4);
    expect(bad.stderr).toContain("line 2: not JSON");
    // Every bad line is named, not only the first: the good lines between are read on.
    const [head, ...rest] = readFileSync(transcript, "utf8").trimEnd().split("\n");
    const twice = path.join(dir, "twice.jsonl");
    writeFileSync(twice, [head, "{oops", ...rest.slice(0, 2), '{"type":"stderr"}', ...rest.slice(2)].join("\n") + "\n");
    const both = await validate(twice);
    expect(both.exitCode).toBe(4);
    expect(both.stderr).toContain("line 2: not JSON");
    expect(both.stderr).toMatch(/line 5: stderr .*ts/);
  });

  // An empty capture (the tap never ran, the wrong file) was judged CONFORMANT with 0 frames, exit 0.
  it("refuses an empty file, and a folder, saying so in words", async () => {
    const empty = path.join(dir, "empty.ndjson");
    writeFileSync(empty, "");
    const r = await validate(empty);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toBe(`acp-playground validate: ${empty}: empty file: nothing to judge`);
    const folder = await validate(dir);
    expect(folder.exitCode).toBe(4);
    expect(folder.stderr).toBe(`acp-playground validate: cannot read ${dir}: a folder, not a file`);
  });
});
