/**
 * A command that reads a transcript from a link, interrupted mid-download (Ctrl-C, SIGTERM): it
 * leaves no temporary folder behind and ends by the signal, as an interrupted command does.
 */
import { execa } from "execa";
import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialize, TRANSCRIPT_FORMAT, TRANSCRIPT_VERSION } from "../../lib/contracts/transcript";

const bin = path.resolve(import.meta.dirname, "../../bin/acp-playground.mjs");
const header = serialize({
  type: "header",
  format: TRANSCRIPT_FORMAT,
  version: TRANSCRIPT_VERSION,
  id: "t",
  createdAt: "2026-11-20T10:00:00.000Z",
  playground: { version: "test" },
  agent: { profile: "remote", command: "agent", args: [], cwd: "/w" },
});

let base: string;
let server: Server;
let url: string;
/** The answers being sent: the first line, then nothing until the test ends. */
const slow: ServerResponse[] = [];

beforeAll(async () => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-cli-interrupt-")));
  server = createServer((_req, res) => {
    slow.push(res);
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    res.write(header);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow.jsonl`;
});
afterAll(async () => {
  for (const res of slow) res.destroy();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(base, { recursive: true, force: true });
});

const sources = (tmp: string) => readdirSync(tmp).filter((f) => f.startsWith("acp-source-"));

describe("a download interrupted", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`by ${signal} leaves no acp-source-* folder and ends by the signal`, async () => {
      // The CLI's own temporary folder, so that only its leftovers are counted.
      const tmp = mkdtempSync(path.join(base, `tmp-${signal}-`));
      const cli = execa(process.execPath, [bin, "validate", url], {
        cwd: base,
        reject: false,
        timeout: 60_000,
        env: { TMPDIR: tmp, ACP_PLAYGROUND_DATA: path.join(base, "data") },
      });
      // Mid-download: the first line is in the file, the rest will not come.
      const deadline = Date.now() + 45_000;
      while (
        !sources(tmp).some((d) => readdirSync(path.join(tmp, d)).length > 0) &&
        Date.now() < deadline &&
        cli.exitCode === null
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sources(tmp), "the download under way").toHaveLength(1);
      cli.kill(signal);
      const end = await cli;
      expect(end.signal, end.stderr).toBe(signal);
      expect(sources(tmp)).toEqual([]);
    }, 60_000);
  }
});
