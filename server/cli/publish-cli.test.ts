/**
 * `acp-playground publish`: local recordings uploaded into a running relay with its token; a
 * wrong token, a missing file and an invalid transcript are each named and nothing else stops.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serialize } from "../../lib/contracts/transcript";
import { startTestRelay, type TestRelay } from "../../test/relay-harness";
import { TranscriptStore } from "../transcripts/transcript-store";
import { CliError } from "./cli-error";
import { publishMain } from "./publish-cli";
import { testHeader } from "../../test/transcripts";

const header = (profile: string) =>
  serialize(testHeader({ id: "t", createdAt: "2026-11-20T10:00:00.000Z", agent: { profile } }));

describe("publish", () => {
  let relay: TestRelay;
  let dir: string;
  beforeAll(async () => {
    relay = await startTestRelay();
    dir = mkdtempSync(path.join(tmpdir(), "acp-publish-"));
  });
  afterAll(async () => {
    await relay?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (argv: string[], token = "test-token") => {
    const lines: string[] = [];
    const code = await publishMain(argv, { ACP_PLAYGROUND_TOKEN: token, ACP_PLAYGROUND_DATA: dir }, (l) =>
      lines.push(l),
    );
    return { code, lines };
  };
  const listed = async () =>
    (
      (await (
        await fetch(`${relay.url}/api/transcripts`, { headers: { authorization: "Bearer test-token" } })
      ).json()) as { transcripts: { profile: string; kind: string }[] }
    ).transcripts;

  it("uploads files and ids from the local library, naming what it refused", async () => {
    const file = path.join(dir, "one.jsonl");
    writeFileSync(file, header("from-file"));
    const local = new TranscriptStore(dir, {});
    const temp = local.tempFile();
    writeFileSync(temp, header("from-library"));
    const { id } = local.import(temp);
    const bad = path.join(dir, "bad.jsonl");
    writeFileSync(bad, "not json\n");

    const { code, lines } = await run([file, id, bad, "missing.jsonl", "--to", relay.url]);
    expect(code).toBe(1);
    expect(lines[0]).toMatch(new RegExp(`^${file}: published as ${relay.url}/transcripts/\\d{8}-\\d{6}-[0-9a-f]{8}$`));
    expect(lines[1]).toContain(`${id}: published as`);
    expect(lines[2]).toMatch(/^.*bad\.jsonl: not published: HTTP 400: line 1/);
    expect(lines[3]).toBe("missing.jsonl: not published: no such file, nor a transcript id in the local library");
    const profiles = (await listed()).filter((m) => m.kind === "upload").map((m) => m.profile);
    expect(profiles.sort()).toEqual(["from-file", "from-library"]);
  });

  it("names a team server it cannot reach, and why", async () => {
    const file = path.join(dir, "three.jsonl");
    writeFileSync(file, header("unreachable"));
    // A port nothing listens on: taken, then given back.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    await new Promise((resolve) => taken.close(resolve));
    const { code, lines } = await run([file, "--to", `http://127.0.0.1:${port}`]);
    expect(code).toBe(1);
    expect(lines).toEqual([
      `${file}: not published: cannot reach http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
  });

  it("names a refused token, and refuses bad arguments before sending anything", async () => {
    const file = path.join(dir, "two.jsonl");
    writeFileSync(file, header("refused"));
    const { code, lines } = await run([file, "--to", `${relay.url}/`], "wrong");
    expect(code).toBe(1);
    expect(lines).toEqual([`${file}: not published: the token was refused: unauthorized`]);
    expect((await listed()).some((m) => m.profile === "refused")).toBe(false);
    await expect(run([file])).rejects.toThrow(CliError);
    await expect(run([file, "--to", "file:///etc"])).rejects.toThrow(/http/);
    await expect(run([file, "--to", relay.url], "")).rejects.toThrow(/ACP_PLAYGROUND_TOKEN/);
  });
});
