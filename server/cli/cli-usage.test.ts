import { describe, expect, it } from "vitest";
import { commandUsage, COMMANDS, helpFor, USAGE } from "./cli-usage";
import { durationMs, outputFormat } from "./cli-options";

describe("helpFor", () => {
  it("answers --help and -h for a command, anywhere before --", () => {
    expect(helpFor(["record", "--prompt", "x", "-h"])).toBe(commandUsage("record"));
    expect(helpFor(["mcp", "--help"])).toBe(commandUsage("mcp"));
    expect(helpFor(["--help"])).toBe(USAGE);
    expect(helpFor(["help", "probe"])).toBe(commandUsage("probe"));
  });

  it("leaves --help after -- to the agent's command, and no help asked is none", () => {
    expect(helpFor(["tap", "--", "cat", "--help"])).toBeUndefined();
    expect(helpFor(["--", "my-agent", "-h"])).toBeUndefined();
    expect(helpFor(["record", "--prompt", "x"])).toBeUndefined();
    expect(helpFor([])).toBeUndefined();
  });

  it("says what record's and replay's defaults do", () => {
    expect(COMMANDS.record!.details).toMatch(/default auto: each is\s+allowed at once/);
    expect(COMMANDS.replay!.details).toMatch(/happens\s+again, in --cwd/);
  });

  it("says that every command reading a transcript takes a library id or a team server's link, token from the environment", () => {
    for (const command of ["replay", "export", "validate", "publish"]) {
      const help = commandUsage(command);
      expect(help, command).toMatch(/the id of one in the local library, or its link on a\s+team server/);
      expect(help, command).toMatch(
        /https:\/\/HOST\/transcripts\/ID[^]*ACP_PLAYGROUND_TOKEN \(never on the command line\)/,
      );
      expect(help, command).toContain("https://HOST/share/ID?token=");
    }
  });
});

describe("one spelling per option", () => {
  it("--json is --format json wherever JSON is offered", () => {
    expect(outputFormat({ json: true }, ["text", "json"], "text")).toBe("json");
    expect(outputFormat({ format: "json" }, ["text", "json"], "text")).toBe("json");
    expect(outputFormat({}, ["text", "json"], "text")).toBe("text");
    expect(() => outputFormat({ json: true, format: "junit" }, ["text", "json", "junit"], "text")).toThrow(/disagree/);
    expect(() => outputFormat({ format: "xml" }, ["text", "json"], "text")).toThrow(/--format must be text or json/);
  });

  it("--timeout is seconds, or carries its unit", () => {
    expect(durationMs(undefined, "--timeout", 5)).toBe(5);
    expect(durationMs("90", "--timeout", 0)).toBe(90_000);
    expect(durationMs("90s", "--timeout", 0)).toBe(90_000);
    expect(durationMs("1500ms", "--timeout", 0)).toBe(1500);
    expect(durationMs("2m", "--timeout", 0)).toBe(120_000);
    for (const bad of ["0", "-1", "x", "5h", ""]) expect(() => durationMs(bad, "--timeout", 0)).toThrow(/duration/);
  });
});
