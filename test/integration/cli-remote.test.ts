/**
 * The CLI reads a transcript on a team server by its link: a real recording of the ACP SDK's
 * example agent (test/agents), published to a real relay with a person's named token, then
 * exported, validated and replayed from its link; and each refusal an exit 4 that says why.
 */
import { execa } from "execa";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOtlpReceiver } from "../otlp-receiver";
import { startTestRelay, type TestRelay } from "../relay-harness";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin/acp-playground.mjs");
const exampleAgent = path.join(root, "test/agents/node_modules/@agentclientprotocol/sdk/dist/examples/agent.js");
const ALICE = "alice-token-0123456789abcdef";

let dir: string;
let relay: TestRelay;
let hostile: Server;
let hostileUrl: string;
let id: string;
let link: string;

const cli = (args: string[], env: Record<string, string> = {}) =>
  execa(process.execPath, [bin, ...args], {
    cwd: dir,
    reject: false,
    timeout: 90_000,
    env: {
      HOME: dir,
      ACP_PLAYGROUND_DATA: path.join(dir, "data"),
      ACP_PLAYGROUND_CONFIG: path.join(dir, "config.json"),
      ACP_PLAYGROUND_URL: "",
      ACP_PLAYGROUND_TOKEN: ALICE,
      ...env,
    },
  });

/** The transcript an exported page embeds (gzip, base64: server/transcripts/export.ts). */
const embeddedIn = (page: string) => {
  const html = readFileSync(path.join(dir, page), "utf8");
  const data = /<script id="acp-transcript" type="application\/gzip\+base64">([^<]*)<\/script>/.exec(html)![1]!;
  return gunzipSync(Buffer.from(data, "base64")).toString("utf8");
};

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-cli-remote-")));
  writeFileSync(
    path.join(dir, "config.json"),
    JSON.stringify({ profiles: { sdk: { command: process.execPath, args: [exampleAgent] } } }),
  );
  relay = await startTestRelay({ tokens: { alice: ALICE } });
  // Not a relay: what a wrong link, or a hostile server, may answer.
  hostile = createServer((req, res) => {
    if (req.url!.startsWith("/api/transcripts/json")) return res.writeHead(200).end('{"hello":"world"}\n');
    if (req.url!.startsWith("/api/transcripts/away"))
      return res.writeHead(302, { location: `${relay.url}/api/transcripts/${id}?download` }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;

  const recorded = await cli(["record", "--profile", "sdk", "--prompt", "hello", "-o", "run.jsonl"]);
  expect(recorded.exitCode, recorded.stderr).toBe(0);
  const published = await cli(["publish", "run.jsonl", "--to", relay.url]);
  expect(published.exitCode, published.stdout).toBe(0);
  link = /published as (\S+)/.exec(published.stdout)![1]!;
  id = link.split("/").at(-1)!;
  expect(link).toBe(`${relay.url}/transcripts/${id}`);
}, 120_000);

afterAll(async () => {
  await relay?.close();
  hostile?.closeAllConnections();
  await new Promise((resolve) => hostile?.close(resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a transcript on a team server, by its link", () => {
  it("export writes its HTML, named after its id, from the browser's link or a share link without the token", async () => {
    const run = await cli(["export", link]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^wrote ${id}\\.html \\(\\d+ KiB`));
    // The page embeds the transcript it was made of: the file's events (the server titled its header).
    expect((await cli(["export", "run.jsonl"])).exitCode).toBe(0);
    const embedded = embeddedIn(`${id}.html`);
    expect(embedded).toContain("I'll help you with that.");
    const events = (text: string) => text.slice(text.indexOf("\n"));
    expect(events(embedded)).toBe(events(embeddedIn("run.html")));

    // By its id in a local library (here the relay's own data folder).
    const byId = await cli(["export", id, "-o", "by-id.html"], { ACP_PLAYGROUND_DATA: relay.config.dataDir });
    expect(byId.exitCode, byId.stderr).toBe(0);
    expect(events(embeddedIn("by-id.html"))).toBe(events(embedded));

    const shared = (await (
      await fetch(`${relay.url}/api/transcripts/${id}/share`, {
        method: "POST",
        headers: { authorization: `Bearer ${ALICE}` },
      })
    ).json()) as { shareToken: string };
    const viaShare = await cli(["export", `${relay.url}/share/${id}?token=${shared.shareToken}`, "-o", "shared.html"], {
      ACP_PLAYGROUND_TOKEN: "",
    });
    expect(viaShare.exitCode, viaShare.stderr).toBe(0);
    // A share link's JSONL hides the local paths unless the sharer chose to show them.
    const viaShareText = embeddedIn("shared.html");
    expect(viaShareText).toContain("I'll help you with that.");
    expect(embedded).toContain(dir);
    expect(viaShareText).not.toContain(dir);
  }, 120_000);

  it("validate judges it as it judges the file, and names it by its link", async () => {
    const fromLink = await cli(["validate", "--format", "json", `${relay.url}/api/transcripts/${id}`]);
    const fromFile = await cli(["validate", "--format", "json", "run.jsonl"]);
    expect(fromLink.exitCode).toBe(fromFile.exitCode);
    const report = JSON.parse(fromLink.stdout) as { verdict: string; files: { file: string }[] };
    expect(report.files[0]!.file).toBe(`${relay.url}/api/transcripts/${id}`);
    expect(report.verdict).toBe((JSON.parse(fromFile.stdout) as { verdict: string }).verdict);
  });

  it("export --otlp sends it as traces whose links open it on the team server", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const run = await cli(["export", "--otlp", receiver.url, link]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^sent ${link}: \\d+ spans`));
      const spans = [...receiver.spans.values()];
      expect(spans.length).toBeGreaterThan(0);
      for (const span of spans) {
        expect(span.attributes["acp_playground.transcript.id"]).toBe(id);
        expect(span.attributes["acp_playground.frame.url"]).toMatch(
          new RegExp(`^${relay.url}/transcripts/${id}#seq=\\d+$`),
        );
      }
    } finally {
      await receiver.close();
    }
  });

  it("replay re-runs it against the live agent", async () => {
    const run = await cli(["replay", link]);
    expect(run.stdout).toContain("no difference: sdk behaved as recorded");
    expect(run.exitCode).toBe(0);
  });

  it("exits 4 naming a refused token, a missing transcript, a size over the bound, a non-transcript and a redirect away", async () => {
    const refused = async (args: string[], env: Record<string, string> = {}) => {
      const run = await cli(args, env);
      expect(run.exitCode, run.stderr).toBe(4);
      expect(existsSync(path.join(dir, "out.html"))).toBe(false);
      return run.stderr;
    };
    expect(await refused(["export", link, "-o", "out.html"], { ACP_PLAYGROUND_TOKEN: "wrong-token-0123456789" })).toBe(
      `acp-playground: cannot read ${link}: the server refused the token in ACP_PLAYGROUND_TOKEN`,
    );
    expect(await refused(["replay", `${relay.url}/transcripts/20261120-100000-00000000`])).toContain(
      "no transcript 20261120-100000-00000000 on that server",
    );
    expect(await refused(["validate", link], { ACP_PLAYGROUND_UPLOAD_MAX_BYTES: "100" })).toContain(
      "larger than the 100 bytes a relay takes as a transcript",
    );
    expect(await refused(["export", `${hostileUrl}/transcripts/json`, "-o", "out.html"])).toContain(
      `acp-playground: ${hostileUrl}/transcripts/json: line 1:`,
    );
    expect(await refused(["export", `${hostileUrl}/transcripts/away`, "-o", "out.html"])).toContain(
      `the server redirected to ${relay.url}/api/transcripts/${id}, another origin: not followed`,
    );
  }, 120_000);
});
