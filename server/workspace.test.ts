import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkDirectory, checkFrameDirectories, isInside, keepDirectoriesInside, resolveCwd } from "./workspace";

const base = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-confine-")));
const root = path.join(base, "root");
const outside = path.join(base, "outside");
mkdirSync(path.join(root, "sub"), { recursive: true });
mkdirSync(outside);
writeFileSync(path.join(root, "file.txt"), "x");
symlinkSync(outside, path.join(root, "escape"));
symlinkSync(path.join(root, "sub"), path.join(root, "inner-link"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("isInside", () => {
  it("is path-aware, not a string prefix test", () => {
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b", "/a/b/c")).toBe(true);
    expect(isInside("/a/b", "/a/bc")).toBe(false);
    expect(isInside("/a/b", "/a")).toBe(false);
    // A name that starts with two dots is inside (the data directory guard refuses by this test).
    expect(isInside("/a/b", "/a/b/..x")).toBe(true);
    expect(isInside("/a/b", "/a/x/../b/..")).toBe(false);
  });
});

describe("resolveCwd", () => {
  it("defaults to the first root and resolves relative paths inside it", async () => {
    expect(await resolveCwd(undefined, [root])).toBe(root);
    expect(await resolveCwd("sub", [root])).toBe(path.join(root, "sub"));
    expect(await resolveCwd("inner-link", [root])).toBe(path.join(root, "sub"));
  });

  it("refuses paths outside the roots: absolute, .., and symlinks out", async () => {
    for (const p of [outside, "..", "../outside", "sub/../..", "escape"]) {
      expect(await resolveCwd(p, [root])).toMatchObject({ code: "bad_cwd" });
    }
  });

  it("refuses missing directories and files", async () => {
    expect(await resolveCwd("nope", [root])).toMatchObject({
      code: "bad_cwd",
      message: expect.stringMatching(/no such directory/),
    });
    expect(await resolveCwd("file.txt", [root])).toMatchObject({
      code: "bad_cwd",
      message: expect.stringMatching(/not a directory/),
    });
  });
});

describe("checkDirectory and checkFrameDirectories", () => {
  it("judge a directory by where it really lies, created or not", () => {
    expect(checkDirectory("cwd", path.join(root, "sub"), [root])).toBeUndefined();
    expect(checkDirectory("cwd", path.join(root, "later", "deeper"), [root])).toBeUndefined();
    expect(checkDirectory("cwd", path.join(root, "escape", "later"), [root])).toMatchObject({ code: "bad_cwd" });
    expect(checkDirectory("cwd", path.join(root, "sub", "..", ".."), [root])).toMatchObject({ code: "bad_cwd" });
    expect(checkDirectory("cwd", "sub", [root])?.message).toBe("cwd must be an absolute path: sub");
  });

  it("look only at session requests' cwd and additionalDirectories", () => {
    const line = (method: string, params: object) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
    expect(checkFrameDirectories(line("session/new", { cwd: outside }), [root])?.message).toMatch(
      /^session\/new's cwd is outside the workspace roots/,
    );
    expect(
      checkFrameDirectories(line("session/fork", { cwd: root, additionalDirectories: [outside] }), [root]),
    ).toMatchObject({
      code: "bad_cwd",
    });
    expect(checkFrameDirectories(line("session/prompt", { cwd: outside }), [root])).toBeUndefined();
    expect(
      checkFrameDirectories(line("session/new", { cwd: 7, additionalDirectories: [8, {}] }), [root]),
    ).toBeUndefined();
    expect(checkFrameDirectories('{"method":"session/new"', [root])).toBeUndefined();
  });
});

describe("checkFrameDirectories on lines as an agent reads them", () => {
  it("refuses a directory outside the roots however the line spells it", () => {
    for (const line of [
      `{"method":"session\\/new","params":{"cwd":"\\/etc","mcpServers":[]}}`,
      `{"method":"session\\u002fnew","params":{"cwd":"/etc"}}`,
      `{"method":"session/new","params":{"c\\u0077d":"/etc"}}`,
      // The agent's reader may keep either copy of a repeated key.
      `{"method":"session/new","params":{"cwd":"/etc"},"params":{"cwd":"${root}"}}`,
      `{"method":"session/new","params":{"cwd":"${root}"},"params":{"cwd":"/etc"}}`,
      `{"method":"session/new","method":"session/prompt","params":{"cwd":"/etc"}}`,
      `{"method":"session/prompt","method":"session/new","params":{"cwd":"/etc"}}`,
      // Batches, nested params, several values on a line, a byte-order mark, NaN.
      `[{"method":"session/prompt","params":{}},{"method":"session/load","params":{"cwd":"${root}","additionalDirectories":["/etc"]}}]`,
      `{"method":"session/prompt"} {"method":"session/resume","params":{"cwd":"/etc"}}`,
      `\ufeff{"method":"session/fork","params":{"cwd":"/etc"},"n":NaN}`,
      `{"method":"session/new","params":{"cwd":"${root}","_meta":{"additionalRoots":["/etc"]}}}`,
      `{"method":"session/new","params":{"cwd":"/etc","deep":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`,
      // Cut at a NUL, as a reader in C would read it.
      `{"method":"session/new\\u0000","params":{"cwd\\u0000":"/etc"}}`,
      // Codex app-server.
      `{"id":1,"method":"thread/start","params":{"cwd":"/etc"}}`,
      `{"id":1,"method":"turn\\/start","params":{"threadId":"t","input":[],"cwd":"/etc"}}`,
      `{"id":1,"method":"command/exec","params":{"command":["cat","passwd"],"cwd":"/etc"}}`,
      `{"id":1,"method":"fs/readFile","params":{"path":"/etc/passwd"}}`,
      `{"id":1,"method":"thread/start","params":{"cwd":"${root}","config":{"sandbox_workspace_write.writable_roots":["/etc"]}}}`,
      // Written into Codex's config, the next thread's sandbox may write there.
      `{"id":1,"method":"config/value/write","params":{"keyPath":"sandbox_workspace_write.writable_roots","value":["/etc"],"mergeStrategy":"replace"}}`,
      `{"id":1,"method":"config/value/write","params":{"keyPath":"sandbox_workspace_write","value":{"writable_roots":["/etc"]},"mergeStrategy":"upsert"}}`,
      `{"id":1,"method":"config/batchWrite","params":{"edits":[{"keyPath":"model","value":"m","mergeStrategy":"replace"},{"keyPath":"profiles.p.sandbox_workspace_write.writable_roots","value":["/etc"],"mergeStrategy":"replace"}]}}`,
    ])
      expect(checkFrameDirectories(line, [root]), line).toMatchObject({
        code: "bad_cwd",
        message: expect.stringMatching(/ is outside the workspace roots: \/etc/),
      });
  });

  it("refuses a line padded with whitespace a reader trims first (the ACP SDK: JSON.parse(line.trim()))", () => {
    // JavaScript's trim and Python's strip take more than JSON's four whitespace characters.
    for (const pad of ["\u00a0", "\u2028", "\u3000", "\v", "\f", " \ufeff", "\x1c", "\x85"]) {
      const line = `${pad}{"method":"session/new","params":{"cwd":"/etc","mcpServers":[]}}${pad}`;
      if (!["\x1c", "\x85"].includes(pad)) expect(JSON.parse(line.trim())).toMatchObject({ method: "session/new" });
      expect(checkFrameDirectories(line, [root]), JSON.stringify(pad)).toMatchObject({ code: "bad_cwd" });
    }
  });

  it("judges `..` after a link as the system does: the link's target's parent, not the link's folder", () => {
    // `root/escape` is a link to `outside`: the kernel (Codex's sandbox, a chdir) takes `root/escape/..` to its parent.
    for (const dir of [`${root}/escape/..`, `${root}/escape/../outside`, `${root}/escape/../not-yet`])
      expect(
        checkFrameDirectories(JSON.stringify({ method: "session/new", params: { cwd: dir } }), [root]),
        dir,
      ).toMatchObject({
        code: "bad_cwd",
      });
    expect(
      checkFrameDirectories(JSON.stringify({ method: "session/new", params: { cwd: `${root}/sub/../sub` } }), [root]),
    ).toBeUndefined();
    expect(
      checkFrameDirectories(JSON.stringify({ method: "session/new", params: { cwd: `${root}/inner-link/..` } }), [
        root,
      ]),
    ).toBeUndefined();
  });

  it("refuses a path with a NUL in it, which a reader in C would cut short", () => {
    expect(
      checkFrameDirectories(`{"method":"session/new","params":{"cwd":"/etc\\u0000/..${root}"}}`, [root]),
    ).toMatchObject({
      code: "bad_cwd",
      message: expect.stringMatching(/^session\/new's cwd contains a NUL character: /),
    });
  });

  it("names the request and field it refuses", () => {
    expect(checkFrameDirectories(`{"method":"session\\/new","params":{"cwd":"/etc"}}`, [root])?.message).toMatch(
      /^session\/new's cwd is outside the workspace roots: \/etc \(roots: /,
    );
    expect(
      checkFrameDirectories(`{"id":1,"method":"fs/readFile","params":{"path":"/etc/passwd"}}`, [root])?.message,
    ).toMatch(/^fs\/readFile's path is outside the workspace roots: \/etc\/passwd/);
  });

  it("lets the same requests through inside the roots", () => {
    expect(
      checkFrameDirectories(
        `[{"method":"session\\/new","params":{"cwd":"${root}","cwd":"${root}/sub"}},{"id":1,"method":"thread/start","params":{"cwd":"${root}"}}]`,
        [root],
      ),
    ).toBeUndefined();
  });
});

describe("keepDirectoriesInside", () => {
  it("leaves out a recording's additionalDirectories outside the roots, naming each", () => {
    const dropped: string[] = [];
    const message = {
      jsonrpc: "2.0",
      id: 1,
      method: "session/new",
      params: { cwd: root, additionalDirectories: [path.join(root, "sub"), outside, "/etc", 7] },
    };
    expect(keepDirectoriesInside(message, [root], dropped)).toEqual({
      ...message,
      params: { cwd: root, additionalDirectories: [path.join(root, "sub"), 7] },
    });
    expect(dropped).toEqual([
      `session/new: the recorded additionalDirectories entry ${outside} was left out (outside the workspace roots)`,
      "session/new: the recorded additionalDirectories entry /etc was left out (outside the workspace roots)",
    ]);
    const prompt = { method: "session/prompt", params: { additionalDirectories: ["/etc"] } };
    expect(keepDirectoriesInside(prompt, [root], dropped)).toBe(prompt);
  });
});
