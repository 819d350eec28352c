import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, loadConfig } from "../config";
import { Identities } from "./identities";

const ALICE = "alice-token-0123456789";
const BOB = "bob-token-0123456789ab";
const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
  vi.restoreAllMocks();
});

function configFile(content: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-identities-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, "config.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

/** Writes the file again so that its stamp changes whatever the file system's mtime granularity. */
function rewrite(file: string, content: unknown): void {
  writeFileSync(file, `${JSON.stringify(content)}\n${" ".repeat(Math.floor(Math.random() * 50) + 1)}`);
}

function identities(tokens: Record<string, string>) {
  const file = configFile({ tokens });
  const config = loadConfig({ ACP_PLAYGROUND_CONFIG: file, ACP_PLAYGROUND_TOKEN: "main-token" }, path.dirname(file));
  const ids = new Identities(config.token, config.tokens, config.configFile);
  cleanup.push(() => ids.close());
  return { ids, file };
}

describe("named tokens", () => {
  it("the relay's own token names no one; a named token names its person; anything else is refused", () => {
    const { ids } = identities({ alice: ALICE, bob: BOB });
    expect(ids.who("main-token")).toEqual({});
    expect(ids.who(ALICE)).toEqual({ owner: "alice" });
    expect(ids.who(BOB)).toEqual({ owner: "bob" });
    for (const bad of ["", undefined, 42, "alice", `${ALICE}x`, ALICE.slice(0, -1)])
      expect(ids.who(bad)).toBeUndefined();
  });

  it("a token removed from the config file is refused at once, without a restart, and its listeners hear whose", () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const { ids, file } = identities({ alice: ALICE, bob: BOB });
    const revoked: string[][] = [];
    ids.onRevoked((names) => revoked.push([...names]));
    rewrite(file, { tokens: { alice: ALICE } });
    expect(ids.who(BOB)).toBeUndefined();
    expect(ids.who(ALICE)).toEqual({ owner: "alice" });
    expect(revoked).toEqual([["bob"]]);
    // A changed token revokes the old one; a new name works at once.
    rewrite(file, { tokens: { alice: `${ALICE}-new`, carol: "carol-token-0123456789" } });
    expect(ids.who(ALICE)).toBeUndefined();
    expect(ids.who(`${ALICE}-new`)).toEqual({ owner: "alice" });
    expect(ids.who("carol-token-0123456789")).toEqual({ owner: "carol" });
    expect(revoked[1]).toEqual(["alice"]);
  });

  it("a config file that no longer reads refuses every named token until it is fixed; the relay's own still works", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const { ids, file } = identities({ alice: ALICE });
    writeFileSync(file, "{ not json");
    expect(ids.who(ALICE)).toBeUndefined();
    expect(ids.who("main-token")).toEqual({});
    expect(errors.mock.calls.join("\n")).toMatch(/named tokens refused until the config file reads again/);
    rewrite(file, { tokens: { alice: "short" } });
    expect(ids.who(ALICE)).toBeUndefined();
    rewrite(file, { tokens: { alice: ALICE } });
    expect(ids.who(ALICE)).toEqual({ owner: "alice" });
  });

  it("refuses at start a short token, a bad name, one token for two names, and the relay's own token as a named one", () => {
    const load = (tokens: unknown) => {
      const file = configFile({ tokens });
      const config = loadConfig({ ACP_PLAYGROUND_CONFIG: file, ACP_PLAYGROUND_TOKEN: "main-token-0123456789" });
      return new Identities(config.token, config.tokens, config.configFile).close();
    };
    expect(() => load({ alice: "short" })).toThrow(/tokens\.alice.*at least 16/);
    expect(() => load({ "al ice": ALICE })).toThrow(ConfigError);
    expect(() => load({ alice: ALICE, bob: ALICE })).toThrow(/"alice" and "bob" have the same token/);
    expect(() => load({ alice: "main-token-0123456789" })).toThrow(/relay's own token/);
    expect(() => load(["alice"])).toThrow(ConfigError);
  });

  it("without named tokens nothing is watched and only the relay's own token works", () => {
    const ids = new Identities("main-token", undefined, configFile({}));
    cleanup.push(() => ids.close());
    expect(ids.who("main-token")).toEqual({});
    expect(ids.who(ALICE)).toBeUndefined();
  });
});
