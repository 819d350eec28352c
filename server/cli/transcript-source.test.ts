/**
 * A transcript named on the command line by its link: read from a real relay with a person's named
 * token, or a share link with none; and every way a hostile or wrong remote fails, named.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialize } from "../../lib/contracts/transcript";
import { startTestRelay, type TestRelay } from "../../test/relay-harness";
import { openSource, remoteLink, SourceError, type SourceOptions } from "./transcript-source";
import { testHeader } from "../../test/transcripts";

const ALICE = "alice-token-0123456789abcdef";
const text = serialize(testHeader({ id: "t", createdAt: "2026-11-20T10:00:00.000Z", agent: { profile: "remote" } }));

/** A server that answers what a test tells it to, and keeps every request's headers. */
async function hostile(
  handle: Parameters<typeof createServer>[1],
): Promise<{ url: string; seen: IncomingHttpHeaders[]; server: Server }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    handle!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe("a transcript named by its link", () => {
  let relay: TestRelay;
  let id: string;
  let shareToken: string;
  let dir: string;
  const servers: Server[] = [];
  beforeAll(async () => {
    relay = await startTestRelay({ tokens: { alice: ALICE } });
    dir = mkdtempSync(path.join(tmpdir(), "acp-source-test-"));
    const up = await fetch(`${relay.url}/api/transcripts`, {
      method: "POST",
      headers: { authorization: `Bearer ${ALICE}`, "content-type": "application/x-ndjson" },
      body: text,
    });
    expect(up.status).toBe(201);
    id = ((await up.json()) as { id: string }).id;
    const shared = await fetch(`${relay.url}/api/transcripts/${id}/share`, {
      method: "POST",
      headers: { authorization: `Bearer ${ALICE}` },
    });
    shareToken = ((await shared.json()) as { shareToken: string }).shareToken;
  });
  afterAll(async () => {
    await relay?.close();
    for (const s of servers) s.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    rmSync(dir, { recursive: true, force: true });
  });

  const read = async (arg: string, options: SourceOptions = {}) => {
    const source = await openSource(arg, { env: { ACP_PLAYGROUND_TOKEN: ALICE }, ...options });
    try {
      return { ...source, text: readFileSync(source.file, "utf8") };
    } finally {
      source.close();
      expect(existsSync(source.file)).toBe(false);
    }
  };
  const refusal = async (arg: string, options: SourceOptions = {}) => {
    const err = await openSource(arg, { env: { ACP_PLAYGROUND_TOKEN: ALICE }, ...options }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SourceError);
    return (err as SourceError).message;
  };

  it("reads the browser's link and the API's with a person's named token, into a private file", async () => {
    const page = await read(`${relay.url}/transcripts/${id}`);
    expect(page.text).toContain('"profile":"remote"');
    expect(page).toMatchObject({ name: `${relay.url}/transcripts/${id}`, stem: id, remote: { base: relay.url, id } });
    expect((await read(`${relay.url}/api/transcripts/${id}?download#frames`)).text).toBe(page.text);
  });

  it("reads a share link without the server's token, and never names its share token", async () => {
    const shared = await read(`${relay.url}/share/${id}?token=${shareToken}`, { env: {} });
    expect(shared.text).toContain('"type":"header"');
    expect(shared.name).toBe(`${relay.url}/share/${id}`);
    expect(await refusal(`${relay.url}/share/${id}?token=wrong-${shareToken}`, { env: {} })).toMatch(
      /^no such shared transcript on that server/,
    );
    expect(await refusal(`${relay.url}/share/${id}`)).toBe("a share link needs its ?token=");
  });

  it("names a refused token, a missing one and a missing transcript", async () => {
    const link = `${relay.url}/transcripts/${id}`;
    expect(await refusal(link, { env: { ACP_PLAYGROUND_TOKEN: "wrong-token-0123456789" } })).toBe(
      "the server refused the token in ACP_PLAYGROUND_TOKEN",
    );
    expect(await refusal(link, { env: {} })).toBe("the server wants its token: set ACP_PLAYGROUND_TOKEN");
    // A link to another route is a plain file's: sent no token, and told why it is refused.
    expect(await refusal(`${relay.url}/api/transcripts/${id}/export`)).toBe(
      "HTTP 401: unauthorized (only a /transcripts/ID link is sent the token in ACP_PLAYGROUND_TOKEN)",
    );
    expect(await refusal(`${relay.url}/transcripts/20261120-100000-00000000`)).toBe(
      "no transcript 20261120-100000-00000000 on that server",
    );
  });

  it("reads no more than a relay takes as a transcript, declared or not", async () => {
    const env = { ACP_PLAYGROUND_TOKEN: ALICE, ACP_PLAYGROUND_UPLOAD_MAX_BYTES: "100" };
    // The relay's own answer, over the bound.
    expect(await refusal(`${relay.url}/transcripts/${id}`, { env })).toMatch(
      /^larger than the 100 bytes a relay takes as a transcript \(ACP_PLAYGROUND_UPLOAD_MAX_BYTES\)/,
    );
    // A server that declares no length and does not stop.
    const endless = await hostile((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      const more = () => {
        if (!res.destroyed) res.write("x".repeat(64), () => setImmediate(more));
      };
      more();
    });
    servers.push(endless.server);
    expect(await refusal(`${endless.url}/transcripts/${id}`, { env })).toMatch(/^larger than the 100 bytes/);
  });

  it("refuses a page that is not a transcript, a redirect to another origin with the token, and a silent server", async () => {
    const other = await hostile((_req, res) =>
      res.writeHead(200, { "content-type": "application/x-ndjson" }).end(text),
    );
    servers.push(other.server);
    const remote = await hostile((req, res) => {
      if (req.url!.includes("/api/transcripts/html"))
        return res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>sign in</p>");
      if (req.url!.includes("/api/transcripts/away"))
        return res.writeHead(302, { location: `${other.url}/api/transcripts/away?download` }).end();
      if (req.url!.includes("/api/transcripts/here"))
        return res.writeHead(307, { location: "/api/transcripts/there?download" }).end();
      if (req.url!.includes("/api/transcripts/there")) return res.writeHead(200).end(text);
      if (req.url === "/runs/away.jsonl") return res.writeHead(302, { location: `${other.url}/runs/x.jsonl` }).end();
      // /api/transcripts/silent: never answers
    });
    servers.push(remote.server);
    expect(await refusal(`${remote.url}/transcripts/html`)).toBe(
      "not a transcript: the server answered with an HTML page",
    );
    expect(await refusal(`${remote.url}/transcripts/away`)).toBe(
      `the server redirected to ${other.url}/api/transcripts/away, another origin: not followed (it would be sent the token); name that link if you trust it`,
    );
    expect(other.seen).toEqual([]);
    // Within the origin, a redirect is followed with the token.
    expect((await read(`${remote.url}/transcripts/here`)).text).toBe(text);
    expect(remote.seen.at(-1)!.authorization).toBe(`Bearer ${ALICE}`);
    // A plain file's link is sent no token, and may move to another origin.
    const plain = await read(`${remote.url}/runs/away.jsonl`);
    expect(plain).toMatchObject({ text, stem: "away" });
    expect(plain.remote).toBeUndefined();
    expect([remote.seen.at(-1)!.authorization, other.seen.at(-1)!.authorization]).toEqual([undefined, undefined]);
    expect(await refusal(`${remote.url}/transcripts/silent`, { timeoutMs: 300 })).toBe(
      `${remote.url} sent nothing for 0.3 s`,
    );
  });

  it("takes http(s) links only, and no credentials in them; files and library ids as before", async () => {
    expect(() => remoteLink("file:///etc/passwd")).toThrow("only http:// and https:// links are read, not file:");
    expect(() => remoteLink(`http://alice:secret@127.0.0.1/transcripts/${id}`)).toThrow(/no user or password/);
    expect(await refusal("ftp://example.com/run.jsonl")).toMatch(/not ftp:/);
    expect(await refusal("missing.jsonl", { dataDir: dir })).toBe(
      "no such file, nor a transcript id in the local library",
    );
    expect(await refusal("missing", { dataDir: path.join(dir, "none") })).toBe(
      "no such file, nor a transcript id in the local library",
    );
    expect(existsSync(path.join(dir, "none"))).toBe(false);
    const file = path.join(dir, "local.jsonl");
    writeFileSync(file, text);
    const local = await openSource(file);
    expect(local).toMatchObject({ name: file, file, stem: file.replace(/\.jsonl$/, "") });
    local.close();
    expect(existsSync(file)).toBe(true);
  });
});
