/**
 * `acp-playground tap` between a scripted editor (this test, on the tap's
 * stdio) and real agents: the editor sees exactly the agent's bytes whether
 * the relay is up, down or killed mid-turn; the relay gets every frame and
 * shows the tap read-only to browsers.
 */
import { execa, type ResultPromise } from "execa";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { io, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TapInfo } from "../../lib/contracts/tap-wire";
import { parseTranscript } from "../../lib/contracts/transcript";
import { writeRelayDiscovery } from "../../server/tap/tap-discovery";
import { useGeminiRelay } from "../gemini-relay-setup";
import { alive, startRelayProcess, startTestRelay, TestClient, waitUntil, type TestRelay } from "../relay-harness";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin/acp-playground.mjs");
const stub = path.join(root, "test/fixtures/stub-agent.mjs");
const tapAgent = path.join(root, "test/fixtures/tap-agent.mjs");
const envEcho = path.join(root, "test/fixtures/env-echo-agent.mjs");

const line = (m: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`;

/** The editor: writes to the tap's stdin, keeps every byte of its stdout and stderr. */
class Editor {
  readonly child: ResultPromise;
  private out: Buffer[] = [];
  err = "";
  private waiters = new Set<() => void>();

  constructor(args: string[], env: Record<string, string>, cwd = root) {
    this.child = execa(process.execPath, [bin, "tap", ...args], {
      cwd,
      env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      buffer: false,
      reject: false,
      encoding: "buffer",
    });
    this.child.stdout!.on("data", (chunk: Buffer) => {
      this.out.push(chunk);
      this.notify();
    });
    this.child.stderr!.on("data", (chunk: Buffer) => {
      this.err += chunk.toString();
      this.notify();
    });
  }

  private notify(): void {
    for (const w of this.waiters) w();
  }

  get bytes(): Buffer {
    return Buffer.concat(this.out);
  }

  write(text: string): void {
    this.child.stdin!.write(text);
  }

  /** Closes the tap's stdin, as an editor that is done (the agent exits on EOF). */
  endInput(): void {
    if (!this.child.stdin!.writableEnded) this.child.stdin!.end();
  }

  /** The tap's stdio as an ACP stream for the SDK's client (it reads the same stdout this keeps). */
  acpStream() {
    return ndJsonStream(
      Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(this.child.stdout!) as ReadableStream<Uint8Array>,
    );
  }

  waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const attempt = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.waiters.delete(attempt);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(attempt);
        reject(
          new Error(
            `timed out waiting for ${what}; stdout:\n${this.bytes.toString().slice(-500)}\nstderr:\n${this.err}`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(attempt);
      attempt();
    });
  }

  sees(text: string): Promise<void> {
    return this.waitFor(() => this.bytes.includes(text), JSON.stringify(text));
  }

  async exit(): Promise<number | undefined> {
    return (await this.child).exitCode;
  }
}

/**
 * The same agent with the same input, on a direct pipe: the bytes the editor
 * must see. With `until`, stdin stays open until the output holds it (the stub
 * exits on EOF and would cut its own output short).
 */
async function direct(args: string[], input: string, until?: string): Promise<Buffer> {
  const child = execa(process.execPath, args, { cwd: root, encoding: "buffer", buffer: false, reject: false });
  const out: Buffer[] = [];
  const seen = new Promise<void>((resolve) =>
    child.stdout.on("data", (chunk: Buffer) => {
      out.push(chunk);
      if (until && Buffer.concat(out).includes(until)) resolve();
    }),
  );
  child.stdin.write(input);
  if (until) await seen;
  child.stdin.end();
  await child;
  return Buffer.concat(out);
}

/** Waits for a `taps` list (sent on connecting and on every change) that names a tap. */
function nextTap(socket: Socket): Promise<TapInfo> {
  return new Promise((resolve) => {
    const on = ({ taps }: { taps: TapInfo[] }) => {
      const tap = taps.find((t) => t.connected);
      if (tap) {
        socket.off("taps", on);
        resolve(tap);
      }
    };
    socket.on("taps", on);
  });
}

/**
 * Starts a tap that copies to the relay at `url`, and waits until a browser
 * there sees it listed. `e` defaults to an environment naming that relay.
 */
async function startTap(
  url: string,
  token: string,
  args: string[],
  e: Record<string, string> = env({ ACP_PLAYGROUND_URL: url, ACP_PLAYGROUND_TOKEN: token }),
  cwd = root,
): Promise<{ editor: Editor; tap: TapInfo }> {
  const browser = new TestClient(url, { token });
  try {
    await browser.connected();
    const found = nextTap(browser.socket);
    const editor = new Editor(args, e, cwd);
    return { editor, tap: await found };
  } finally {
    browser.close();
  }
}

/** Waits until the relay has closed a transcript, then reads it. */
async function recorded(relay: TestRelay, id: string) {
  await waitUntil(() => relay.server.relay.transcripts.meta(id)?.recording === false, "recorded");
  return parseTranscript(relay.server.relay.transcripts.read(id)!);
}

const scratch: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-tap-"));
  scratch.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** An environment with no relay to be found unless the test names one. */
const env = (extra: Record<string, string> = {}) => ({
  ACP_PLAYGROUND_URL: "",
  ACP_PLAYGROUND_TOKEN: "",
  ACP_PLAYGROUND_CONFIG: "",
  ACP_PLAYGROUND_DATA: dataDir(),
  ...extra,
});

const noiseInput =
  line({ id: 1, method: "initialize", params: { protocolVersion: 1 } }) +
  "not json from the editor\n" +
  line({ id: 2, method: "session/new", params: { cwd: "/tmp", text: "é ✓ 日本" } });

describe("tap with no relay running", () => {
  it("passes the agent's bytes through untouched and records a tapped transcript", async () => {
    const e = env();
    const editor = new Editor(["--", "node", stub, "noise", "2048"], e);
    editor.write(noiseInput);
    await editor.sees('"id":2,"result"');
    // The editor closing stdin ends the session: the agent exits on EOF, its code passes through.
    editor.endInput();
    expect(await editor.exit()).toBe(0);
    expect(editor.bytes.equals(await direct([stub, "noise", "2048"], noiseInput, '"id":2,"result"'))).toBe(true);
    // The agent's stderr reaches the editor unchanged.
    expect(editor.err).toContain("stub agent started in noise mode\n");
    expect(editor.err).toContain("no playground relay found: recording to");

    const dir = path.join(e.ACP_PLAYGROUND_DATA, "transcripts");
    const file = readdirSync(dir).find((f) => f.endsWith(".jsonl"))!;
    const t = parseTranscript(readFileSync(path.join(dir, file), "utf8"));
    expect(t.header.tapped).toBe(true);
    expect(t.header.agent.args).toEqual([stub, "noise", "2048"]);
    const meta = JSON.parse(readFileSync(path.join(dir, file.replace(".jsonl", ".meta.json")), "utf8"));
    expect(meta).toMatchObject({ tapped: true, recording: false });
    expect(meta.title).toMatch(/^tapped node /);
    // Every line both ways: noise (not JSON, a long line, a split line, 10,000 notifications) and 3 answers.
    expect(t.frames.filter((f) => f.dir === "to-agent").map((f) => f.raw)).toEqual(noiseInput.trimEnd().split("\n"));
    const fromAgent = t.frames.filter((f) => f.dir === "from-agent");
    expect(fromAgent).toHaveLength(10_006);
    expect(fromAgent.filter((f) => f.kind !== "invalid").map((f) => f.raw)).toEqual(
      editor.bytes
        .toString()
        .split("\n")
        .filter((l) => l.startsWith("{")),
    );
    expect(t.events.at(-1)).toMatchObject({ type: "lifecycle", event: "exited", code: 0 });
  });

  it("stops the agent's whole process group when the editor closes stdin", async () => {
    const editor = new Editor(["--", "node", stub, "spawn-child"], env());
    await editor.sees('"stub/child"');
    const grandchild = JSON.parse(editor.bytes.toString().split("\n")[0]!).params.pid as number;
    expect(alive(grandchild)).toBe(true);
    editor.endInput();
    await editor.exit();
    // The grandchild ignores SIGTERM: only the group's SIGKILL ends it.
    await waitUntil(() => !alive(grandchild), "the grandchild is gone");
  });

  it("exits 127 with a clear message when the agent cannot be started", async () => {
    const editor = new Editor(["--", "no-such-agent-anywhere"], env());
    expect(await editor.exit()).toBe(127);
    expect(editor.err).toContain("executable not found: no-such-agent-anywhere");
  });
});

describe("tap with the relay up", () => {
  let relay: TestRelay;
  const clients: TestClient[] = [];
  const connect = async (auth: Record<string, unknown> = {}) => {
    const c = new TestClient(relay.url, { token: "test-token", ...auth });
    clients.push(c);
    await c.connected();
    return c;
  };
  beforeAll(async () => {
    relay = await startTestRelay({ graceMs: 500 });
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(() => relay.close());

  it("copies every frame to the relay, which a browser watches read-only until it turns injection on", async () => {
    const { editor, tap } = await startTap(relay.url, "test-token", ["--", "node", tapAgent]);
    expect(tap.agent).toMatchObject({ command: "node", args: [tapAgent], cwd: root });

    const viewer = await connect({ clientId: `${tap.clientId}-tab1` });
    const other = await connect({ clientId: `${tap.clientId}-tab2` });
    const input = [
      line({ id: 1, method: "initialize", params: {} }),
      line({ id: 2, method: "session/prompt", params: {} }),
      line({ method: "tick" }),
      line({ method: "tick" }),
      line({ method: "bytes" }),
      line({ method: "tick" }),
      line({ method: "finish" }),
    ];
    editor.write(input.join(""));
    await editor.sees('"stopReason":"end_turn"');
    await viewer.response(2);
    expect(viewer.stderr.join("")).toContain("tick 3\n");

    // Read-only: the browser can neither write nor drive the agent.
    expect(await viewer.emit("agent:send", { frame: line({ id: 9, method: "x" }).trim() })).toMatchObject({
      ok: false,
      error: { code: "read_only" },
    });
    for (const event of ["agent:start", "agent:stop", "policy:set"] as const)
      expect(await viewer.emit(event, {})).toMatchObject({ ok: false, error: { code: "read_only" } });

    // With injection on, a frame reaches the agent, marked injected; the agent's answer reaches the editor too.
    expect(await viewer.emit("tap:injection" as never, { enabled: true })).toEqual({ ok: true, injection: true });
    // Injection is per tab: another tab watching the same tap stays read-only...
    expect(await other.emit("agent:send", { frame: "{}" })).toMatchObject({ ok: false, error: { code: "read_only" } });
    // ...until it is turned on for it, here from a socket that only follows the taps list.
    const watch = io(relay.url, {
      auth: { token: "test-token", watch: "taps" },
      transports: ["websocket"],
      forceNew: true,
    });
    try {
      const name = { clientId: `${tap.clientId}-tab2`, enabled: true };
      expect(await watch.emitWithAck("tap:injection", name)).toEqual({ ok: true, injection: true });
      expect(await watch.emitWithAck("tap:injection", { ...name, enabled: false })).toEqual({
        ok: true,
        injection: false,
      });
      expect(await watch.emitWithAck("agent:send", { frame: "{}" })).toMatchObject({ ok: false });
    } finally {
      watch.close();
    }
    expect(await other.emit("agent:send", { frame: "{}" })).toMatchObject({ ok: false, error: { code: "read_only" } });
    const injected = line({ id: 77, method: "injected/hello", params: {} }).trim();
    const ack = await viewer.emit("agent:send", { frame: injected });
    expect(ack.ok).toBe(true);
    await editor.sees('"id":77');
    const frame = await viewer.frame((f) => f.raw === injected, "the injected frame");
    expect(frame).toMatchObject({ dir: "to-agent", injected: true, seq: ack.seq });
    await viewer.response(77);

    editor.write(line({ id: 5, method: "exit", params: { code: 4 } }));
    expect(await editor.exit()).toBe(4);
    await viewer.waitFor(() => viewer.exits[0], "agent:exit");
    expect(viewer.exits[0]).toEqual({ code: 4, signal: null });

    // The editor saw exactly what the agent wrote on a direct pipe (the injected answer included).
    const expected = await direct(
      [tapAgent],
      input.join("") + `${injected}\n` + line({ id: 5, method: "exit", params: { code: 4 } }),
    );
    expect(editor.bytes.equals(expected)).toBe(true);
    // The relay got every frame, byte for byte (lines without their LF; a CR kept, bytes that are not UTF-8 kept
    // beside their lenient text, the frame flagged invalid).
    const fromAgent = viewer.frames.filter((f) => f.dir === "from-agent");
    expect(
      Buffer.concat(
        fromAgent.map((f) =>
          Buffer.concat([f.rawBase64 ? Buffer.from(f.rawBase64, "base64") : Buffer.from(f.raw), Buffer.from("\n")]),
        ),
      ).equals(expected),
    ).toBe(true);
    expect(fromAgent.filter((f) => f.raw.endsWith("\r"))).toHaveLength(1);
    expect(fromAgent.filter((f) => f.rawBase64)).toEqual([
      expect.objectContaining({ kind: "invalid", error: expect.stringMatching(/not valid UTF-8/) }),
    ]);
    expect(viewer.frames.filter((f) => f.dir === "to-agent" && !f.injected).map((f) => f.raw)).toEqual(
      [...input, line({ id: 5, method: "exit", params: { code: 4 } })].map((l) => l.trim()),
    );
    expect(viewer.frames.map((f) => f.seq)).toEqual(viewer.frames.map((_, i) => i + 1));

    // Recorded like any other, marked tapped, the injected frame marked too.
    const t = await recorded(relay, tap.agent.transcriptId!);
    expect(t.header.tapped).toBe(true);
    expect(t.frames.filter((f) => f.injected).map((f) => f.raw)).toEqual([injected]);
    expect(t.frames).toHaveLength(viewer.frames.length);
    expect(t.frames.filter((f) => f.rawBase64).map((f) => Buffer.from(f.rawBase64!, "base64").includes(0xff))).toEqual([
      true,
    ]);
    // The header and `spawned` come first; no line is stamped before the one above it.
    expect(t.events[0]).toMatchObject({ type: "lifecycle", event: "spawned" });
    const stamps = [Date.parse(t.header.createdAt), ...t.events.map((e) => e.ts)];
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
  });

  it("finds the relay through the files it writes in the data directory, with no token in the environment", async () => {
    const e = env();
    writeRelayDiscovery(e.ACP_PLAYGROUND_DATA, relay.url, "test-token");
    const { editor, tap } = await startTap(relay.url, "test-token", ["--", "node", tapAgent], e);
    editor.write(line({ id: 1, method: "exit", params: { code: 0 } }));
    expect(await editor.exit()).toBe(0);
    expect(editor.err).toContain(`copying frames to the relay at ${relay.url}`);
    expect(tap.agent.transcriptId).toBeTruthy();
  });

  it("keeps the tap's connection past the relay's connect timeout for sockets that never authenticate", async () => {
    const { editor, tap } = await startTap(relay.url, "test-token", ["--", "node", tapAgent]);
    const engine = relay.server.relay.io.engine as unknown as { clients: Record<string, unknown> };
    const tapSocket = relay.server.relay.taps.sessions.get(tap.id)!.socket!;
    // A bare handshake opened after the tap's: once the relay has dropped it, the tap's timer has fired too.
    const res = await fetch(`${relay.url}/socket.io/?EIO=4&transport=polling`);
    const { sid } = JSON.parse((await res.text()).slice(1)) as { sid: string };
    await waitUntil(() => !(sid in engine.clients), "the idle handshake closed", 10_000);
    expect(tapSocket.connected).toBe(true);
    expect(relay.server.relay.taps.sessions.get(tap.id)!.socket).toBe(tapSocket);
    editor.write(line({ id: 1, method: "exit", params: { code: 0 } }));
    expect(await editor.exit()).toBe(0);
    expect(editor.err).not.toContain("lost the relay");
  });

  it("refuses on /tap a wrong token, and batches that are not the contract", async () => {
    const wrong = io(`${relay.url}/tap`, {
      auth: { token: "nope", tapId: "0123456789abcdef" },
      transports: ["websocket"],
      reconnection: false,
    });
    await expect(
      new Promise((resolve, reject) => {
        wrong.once("connect", () => resolve("connected"));
        wrong.once("connect_error", reject);
      }),
    ).rejects.toThrow("unauthorized");
    wrong.close();
    const tapSocket = io(`${relay.url}/tap`, {
      auth: { token: "test-token", tapId: "0123456789abcdef" },
      transports: ["websocket"],
      reconnection: false,
    });
    try {
      expect(await tapSocket.emitWithAck("tap:events", { n: 1, events: [] })).toMatchObject({
        ok: false,
        error: { code: "no_agent" },
      });
      expect(
        await tapSocket.emitWithAck("tap:open", { profile: "x", command: "x", args: [], cwd: "/", pid: -1 }),
      ).toMatchObject({
        ok: false,
        error: { code: "invalid_payload" },
      });
      expect(
        await tapSocket.emitWithAck("tap:open", { profile: "x", command: "x", args: [], cwd: "/", pid: 1 }),
      ).toMatchObject({ ok: true });
      for (const bad of [{ n: 1, events: [{ t: "line", ts: 1, dir: "sideways", raw: "" }] }, { n: 0, events: [] }, "x"])
        expect(await tapSocket.emitWithAck("tap:events", bad)).toMatchObject({
          ok: false,
          error: { code: "invalid_payload" },
        });
      const good = { n: 1, events: [{ t: "line", ts: Date.now(), dir: "to-agent", raw: "{}" }] };
      expect(await tapSocket.emitWithAck("tap:events", good)).toEqual({ ok: true, n: 1 });
      // A batch sent again after a reconnect is acknowledged once and not applied twice.
      expect(await tapSocket.emitWithAck("tap:events", good)).toEqual({ ok: true, n: 1 });
      expect(relay.server.relay.taps.sessions.get("0123456789abcdef")!.log).toHaveLength(1);
    } finally {
      tapSocket.close();
    }
  });

  it("refuses a tap with the wrong token, and the tap records on its own", async () => {
    // Taps of earlier tests may still be listed (a lost tap is kept for its reconnect).
    const earlier = new Set(relay.server.relay.taps.list({}).map((t) => t.id));
    const e = env({ ACP_PLAYGROUND_URL: relay.url, ACP_PLAYGROUND_TOKEN: "wrong" });
    const editor = new Editor(["--", "node", stub, "echo"], e);
    editor.write(line({ id: 1, method: "initialize" }) + line({ id: 2, method: "crash" }));
    expect(await editor.exit()).toBe(3);
    expect(editor.err).toMatch(/not reachable \(unauthorized\): recording to/);
    expect(readdirSync(path.join(e.ACP_PLAYGROUND_DATA, "transcripts")).some((f) => f.endsWith(".jsonl"))).toBe(true);
    expect(relay.server.relay.taps.list({}).filter((t) => !earlier.has(t.id))).toEqual([]);
  });

  it("redacts the agent's secrets before they leave the tap: the relay never gets them", async () => {
    // In the tap's environment and the profile's, never in the relay's: only the tap can redact them.
    const tapSecret = "zq8Lw-tap-only-4471";
    const profileSecret = "pf9Qx-profile-only-5582";
    const e = env({ ACP_PLAYGROUND_URL: relay.url, ACP_PLAYGROUND_TOKEN: "test-token", TAPPED_AGENT_TOKEN: tapSecret });
    e.ACP_PLAYGROUND_CONFIG = path.join(e.ACP_PLAYGROUND_DATA, "config.json");
    const args = [envEcho, "TAPPED_AGENT_TOKEN", "LEAKY_PROFILE_KEY", `--note=${profileSecret}`];
    writeFileSync(
      e.ACP_PLAYGROUND_CONFIG,
      JSON.stringify({
        profiles: { leaky: { command: process.execPath, args, env: { LEAKY_PROFILE_KEY: profileSecret } } },
      }),
    );
    expect(process.env.TAPPED_AGENT_TOKEN).toBeUndefined();
    const { editor, tap } = await startTap(relay.url, "test-token", ["--profile", "leaky"], e);
    const viewer = await connect({ clientId: tap.clientId });
    editor.write(line({ id: 1, method: "initialize", params: {} }));
    // The editor gets the agent's bytes untouched, secrets and all.
    await editor.sees(`tapped_agent_token is ${tapSecret}; leaky_profile_key is ${profileSecret}`);
    await viewer.response(1);
    await viewer.waitFor(() => viewer.stderr.join("").includes("env echo agent"), "the agent's stderr");
    editor.endInput();
    expect(await editor.exit()).toBe(0);
    await viewer.waitFor(() => viewer.exits[0], "agent:exit");

    await recorded(relay, tap.agent.transcriptId!);
    const seen = {
      frames: viewer.frames.map((f) => f.raw),
      stderr: viewer.stderr,
      tap: tap.agent,
      listed: relay.server.relay.taps.list({}),
      transcript: relay.server.relay.transcripts.read(tap.agent.transcriptId!)!,
    };
    expect(seen.transcript).toContain('"tapped":true');
    for (const [where, what] of Object.entries(seen)) {
      const text = JSON.stringify(what);
      expect(text, where).not.toContain(tapSecret);
      expect(text, where).not.toContain(profileSecret);
    }
    expect(seen.frames.find((raw) => raw.includes('"said"'))).toContain("tapped_agent_token is [REDACTED]");
    expect(seen.stderr.join("")).toContain("leaky_profile_key is [REDACTED]");
    expect(tap.agent.args).toContain("--note=[REDACTED]");
  });

  it("drops copies beyond its buffer, counts them, and says so; the editor still gets every byte", async () => {
    const input = line({ id: 1, method: "initialize" });
    const { editor, tap } = await startTap(
      relay.url,
      "test-token",
      ["--", "node", stub, "noise", "2048"],
      env({
        ACP_PLAYGROUND_URL: relay.url,
        ACP_PLAYGROUND_TOKEN: "test-token",
        ACP_PLAYGROUND_TAP_BUFFER_BYTES: "20000",
      }),
    );
    const viewer = await connect({ clientId: tap.clientId });
    editor.write(input);
    await editor.sees('"id":1,"result"');
    editor.endInput();
    expect(await editor.exit()).toBe(0);
    expect(editor.bytes.equals(await direct([stub, "noise", "2048"], input, '"id":1,"result"'))).toBe(true);
    expect(editor.err).toContain("dropping copies beyond 20000 bytes");
    expect(editor.err).toMatch(/\d+ frames could not be forwarded to the relay/);
    await viewer.waitFor(() => viewer.exits[0], "agent:exit");
    const t = await recorded(relay, tap.agent.transcriptId!);
    const notice = t.events.find((ev) => ev.type === "lifecycle" && ev.message?.includes("could not forward"));
    expect(notice).toMatchObject({ event: "error", message: expect.stringMatching(/could not forward \d+ frames/) });
    expect(viewer.frames.length).toBeLessThan(10_000);
  });
});

describe("tap when the relay is killed mid-turn", () => {
  it("keeps the editor's session whole and reports what it could not forward", async () => {
    const relay = await startRelayProcess({});
    try {
      const { editor, tap } = await startTap(relay.url, "bench", ["--", "node", tapAgent]);
      const viewer = new TestClient(relay.url, { token: "bench", clientId: tap.clientId });
      await viewer.connected();
      const input = [
        line({ id: 1, method: "initialize", params: {} }),
        line({ id: 2, method: "session/prompt", params: {} }),
        line({ method: "tick" }),
      ];
      editor.write(input.join(""));
      await viewer.frame((f) => f.method === "session/update", "the first update at the relay");

      relay.child.kill("SIGKILL");
      await relay.child;
      viewer.close();
      const rest = [
        line({ method: "tick" }),
        line({ method: "tick" }),
        line({ method: "tick" }),
        line({ method: "finish" }),
      ];
      editor.write(rest.join(""));
      await editor.sees('"stopReason":"end_turn"');
      await editor.waitFor(() => editor.err.includes("lost the relay"), "the tap's report");
      const exit = line({ id: 3, method: "exit", params: { code: 0 } });
      editor.write(exit);
      expect(await editor.exit()).toBe(0);
      expect(editor.bytes.equals(await direct([tapAgent], input.join("") + rest.join("") + exit))).toBe(true);
      expect(editor.err).toMatch(/\d+ frames? could not be forwarded to the relay/);
    } finally {
      await relay.close();
    }
  });
});

describe("tap with the real Gemini CLI, the ACP SDK's client as the editor", () => {
  const g = useGeminiRelay({ killGraceMs: 3_000 });

  it("runs a turn through the tap; the relay gets exactly the lines the editor got", async () => {
    const { editor, tap } = await startTap(g.relay.url, "test-token", ["--profile", "gemini"], undefined, g.workspace);
    expect(tap.agent.profile).toBe("gemini");
    const viewer = await g.client({ clientId: tap.clientId });
    g.api.script({ parts: [{ text: "Hello " }, { text: "through the tap." }] });

    const stream = editor.acpStream();
    const text = await client({ name: "tap-test-editor" }).connectWith(stream, async (ctx) => {
      const init = await ctx.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      });
      expect(init.agentInfo?.name).toBe("gemini-cli");
      const session = await ctx.buildSession(g.workspace).start();
      const reply = session.readText();
      await session.prompt("Say hello");
      return reply;
    });
    expect(text).toBe("Hello through the tap.");
    // The editor is done: closing stdin ends the agent (Gemini exits on EOF).
    editor.endInput();
    expect(await editor.exit()).toBe(0);
    await viewer.waitFor(() => viewer.exits[0], "agent:exit");

    const lines = editor.bytes.toString().split("\n").filter(Boolean);
    await viewer.waitFor(
      () => viewer.frames.filter((f) => f.dir === "from-agent").length >= lines.length,
      "every frame",
    );
    expect(viewer.frames.filter((f) => f.dir === "from-agent").map((f) => f.raw)).toEqual(lines);
    expect(viewer.frames.filter((f) => f.dir === "to-agent").map((f) => f.method)).toEqual([
      "initialize",
      "session/new",
      "session/prompt",
    ]);
  });
});

describe("tap with the ACP SDK's example agent, the SDK's client as the editor", () => {
  const exampleAgent = path.join(root, "test/agents/node_modules/@agentclientprotocol/sdk/dist/examples/agent.js");
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay({ graceMs: 500 });
  });
  afterAll(() => relay.close());

  it("runs a turn with its permission request through the tap; relay, browser and transcript get every frame", async () => {
    const { editor, tap } = await startTap(relay.url, "test-token", ["--", process.execPath, exampleAgent]);
    const viewer = new TestClient(relay.url, { token: "test-token", clientId: tap.clientId });
    await viewer.connected();
    try {
      const stream = editor.acpStream();
      const asked: string[] = [];
      const editorApp = client({ name: "tap-test-editor" }).onRequest(
        methods.client.session.requestPermission,
        ({ params }) => {
          asked.push(params.toolCall.title ?? "");
          const allow = params.options.find((o) => o.kind === "allow_once") ?? params.options[0]!;
          return { outcome: { outcome: "selected", optionId: allow.optionId } };
        },
      );
      const result = await editorApp.connectWith(stream, async (ctx) => {
        await ctx.request(methods.agent.initialize, {
          protocolVersion: PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        });
        const session = await ctx.buildSession(root).start();
        const reply = session.readText();
        const prompt = await session.prompt("Edit the config");
        return { text: await reply, stopReason: prompt.stopReason };
      });
      // The turn ends only once the editor answered the agent's permission request through the tap.
      expect(asked).toHaveLength(1);
      expect(result.stopReason).toBe("end_turn");
      expect(result.text).toMatch(/^I'll help you with that\..*successfully updated the configuration/s);
      editor.endInput();
      expect(await editor.exit()).toBe(0);
      // The turn outlasts nothing: the tap kept its one connection to the relay throughout.
      expect(editor.err).not.toContain("lost the relay");
      await viewer.waitFor(() => viewer.exits[0], "agent:exit");

      // The editor got exactly the agent's lines; the browser watching the tap saw each of them, both ways.
      const lines = editor.bytes.toString().split("\n").filter(Boolean);
      const fromAgent = viewer.frames.filter((f) => f.dir === "from-agent");
      expect(fromAgent.map((f) => f.raw)).toEqual(lines);
      expect(fromAgent.filter((f) => f.method === "session/request_permission")).toHaveLength(1);
      const toAgent = viewer.frames.filter((f) => f.dir === "to-agent");
      expect(toAgent.map((f) => `${f.kind} ${f.method}`)).toEqual([
        "request initialize",
        "request session/new",
        "request session/prompt",
        "response session/request_permission",
      ]);
      expect(toAgent.some((f) => f.injected)).toBe(false);
      expect(viewer.frames.map((f) => f.seq)).toEqual(viewer.frames.map((_, i) => i + 1));

      // Recorded by the relay, marked tapped, every frame the browser saw.
      const id = tap.agent.transcriptId!;
      const t = await recorded(relay, id);
      expect(relay.server.relay.transcripts.meta(id)).toMatchObject({ tapped: true });
      expect(t.header.tapped).toBe(true);
      expect(t.frames.map((f) => f.raw)).toEqual(viewer.frames.map((f) => f.raw));
    } finally {
      viewer.close();
    }
  });
});
