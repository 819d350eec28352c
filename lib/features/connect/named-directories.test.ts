import { describe, expect, it } from "vitest";
import { readJsonLine } from "../../protocol/json-readings";
import { namedDirectories } from "./named-directories";

/** What a line names, as `method's field: path`. */
const named = (line: string) =>
  namedDirectories(readJsonLine(line).values).map((d) => `${d.method}'s ${d.field}: ${d.path}`);

describe("namedDirectories", () => {
  it("finds session/new's cwd whatever the spelling of its method and keys", () => {
    for (const line of [
      '{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/etc","mcpServers":[]}}',
      '{"method":"session\\/new","params":{"cwd":"\\/etc"}}',
      '{"method":"session\\u002fnew","params":{"cwd":"/etc"}}',
      '{"method":"\\u0073\\u0065\\u0073\\u0073\\u0069\\u006f\\u006e\\u002f\\u006e\\u0065\\u0077","params":{"\\u0063wd":"/etc"}}',
      '{"p\\u0061rams":{"cwd":"/etc"},"m\\u0065thod":"session/new"}',
      '\ufeff {"method":"session/new","params":{"cwd":"/etc"},"x":NaN}',
    ])
      expect(named(line), line).toEqual(["session/new's cwd: /etc"]);
  });

  it("follows every copy of a repeated key: whichever the agent's reader keeps is judged", () => {
    expect(
      named('{"method":"session/new","params":{"cwd":"/in"},"method":"session/prompt","params":{"cwd":"/etc"}}'),
    ).toEqual(["session/new's cwd: /in", "session/new's cwd: /etc"]);
    expect(named('{"method":"session/prompt","method":"session/load","params":{"cwd":"/a","cwd":"/b"}}')).toEqual([
      "session/load's cwd: /a",
      "session/load's cwd: /b",
    ]);
    expect(
      named('{"method":"session/new","params":{"additionalDirectories":["/a"],"additionalDirectories":["/b"]}}'),
    ).toEqual(["session/new's additionalDirectories entry: /a", "session/new's additionalDirectories entry: /b"]);
  });

  it("reads a method and keys as a reader in C would, cut at a NUL", () => {
    expect(named('{"method":"session/new\\u0000x","params":{"cwd\\u0000y":"/etc"}}')).toEqual([
      "session/new's cwd: /etc",
    ]);
  });

  it("opens batches, nested batches and several messages on one line, even one cut short", () => {
    expect(
      named(
        '[{"method":"session/prompt"},[{"method":"session/resume","params":{"cwd":"/r"}}],{"method":"session/fork","params":{"cwd":"/f"}}]',
      ),
    ).toEqual(["session/fork's cwd: /f", "session/resume's cwd: /r"]);
    expect(named('{"method":"initialize"} {"method":"session/new","params":{"cwd":"/etc"}} {"method":')).toEqual([
      "session/new's cwd: /etc",
    ]);
  });

  it("names ACP's additional directories, Claude's _meta roots, and session/list's filter", () => {
    expect(
      named(
        JSON.stringify({
          method: "session/new",
          params: {
            cwd: "/w",
            additionalDirectories: ["/a", 7],
            _meta: {
              additionalRoots: ["/m"],
              claudeCode: { options: { additionalDirectories: ["/c"], cwd: "/o", extraArgs: { "add-dir": "/d" } } },
            },
          },
        }),
      ),
    ).toEqual([
      "session/new's cwd: /w",
      "session/new's additionalDirectories entry: /a",
      "session/new's _meta.additionalRoots entry: /m",
      "session/new's _meta.claudeCode.options.additionalDirectories entry: /c",
      "session/new's _meta.claudeCode.options.cwd: /o",
      "session/new's _meta.claudeCode.options.extraArgs.add-dir: /d",
    ]);
    expect(named('{"method":"session/list","params":{"cwd":"/l"}}')).toEqual(["session/list's cwd: /l"]);
  });

  it("names Codex app-server's thread and turn directories and the paths its requests act on", () => {
    const line = (method: string, params: object) => JSON.stringify({ id: 1, method, params });
    expect(
      named(
        line("thread/start", {
          cwd: "/t",
          config: {
            "sandbox_workspace_write.writable_roots": ["/x"],
            sandbox_workspace_write: { writable_roots: ["/y"] },
            model: "m",
          },
        }),
      ),
    ).toEqual([
      "thread/start's cwd: /t",
      "thread/start's config.sandbox_workspace_write.writable_roots entry: /x",
      "thread/start's config.sandbox_workspace_write.writable_roots entry: /y",
    ]);
    expect(
      named(
        line("turn/start", {
          threadId: "t",
          cwd: "/c",
          sandboxPolicy: { type: "workspaceWrite", writableRoots: ["/w"] },
          input: [
            { type: "text", text: "hi" },
            { type: "localImage", path: "/i.png" },
          ],
        }),
      ),
    ).toEqual([
      "turn/start's cwd: /c",
      "turn/start's sandboxPolicy.writableRoots entry: /w",
      "turn/start's input[].path: /i.png",
    ]);
    expect(named(line("command/exec", { command: ["ls"], cwd: "/etc" }))).toEqual(["command/exec's cwd: /etc"]);
    expect(named(line("thread/resume", { threadId: "t", path: "/r.jsonl" }))).toEqual([
      "thread/resume's path: /r.jsonl",
    ]);
    expect(named(line("fs/readFile", { path: "/etc/passwd" }))).toEqual(["fs/readFile's path: /etc/passwd"]);
    expect(named(line("fs/copy", { sourcePath: "/s", destinationPath: "/d" }))).toEqual([
      "fs/copy's sourcePath: /s",
      "fs/copy's destinationPath: /d",
    ]);
    expect(named(line("thread/list", { cwd: ["/a", "/b"] }))).toEqual([
      "thread/list's cwd entry: /a",
      "thread/list's cwd entry: /b",
    ]);
  });

  it("leaves other requests, other fields and values of other types alone", () => {
    expect(
      named('{"method":"session/prompt","params":{"cwd":"/etc","prompt":[{"type":"text","text":"/etc"}]}}'),
    ).toEqual([]);
    expect(named('{"method":"session/new","params":{"cwd":7,"additionalDirectories":[8,{}],"path":"/etc"}}')).toEqual(
      [],
    );
    expect(named('{"method":"Session/New","params":{"cwd":"/etc"}}')).toEqual([]);
    expect(named('{"result":{"cwd":"/etc"},"id":1}')).toEqual([]);
    expect(named('"session/new"')).toEqual([]);
  });
});
