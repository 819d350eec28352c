import { describe, expect, it } from "vitest";
import { applyCommand, matchCommands, slashQuery, toSlashCommands } from "./slash-commands";

const commands = toSlashCommands([
  { name: "memory", description: "Manage memory." },
  { name: "memory show", description: "Shows the current memory contents." },
  { name: "extensions", description: "Manage extensions.", input: { hint: "name" } },
  { description: "no name" },
]);

describe("slash commands", () => {
  it("reads the agent's commands", () => {
    expect(commands.map((c) => c.name)).toEqual(["memory", "memory show", "extensions"]);
    expect(commands[2]).toEqual({ name: "extensions", description: "Manage extensions.", hint: "name" });
  });

  it("only text starting with / is a query", () => {
    expect(slashQuery("hello /x")).toBeUndefined();
    expect(slashQuery("/")).toBe("");
    expect(slashQuery("/memory sh\nmore")).toBe("memory sh");
  });

  it("matches prefixes first, then substrings", () => {
    expect(matchCommands(commands, "").length).toBe(3);
    expect(matchCommands(commands, "mem").map((c) => c.name)).toEqual(["memory", "memory show"]);
    expect(matchCommands(commands, "memory s").map((c) => c.name)).toEqual(["memory show"]);
    expect(matchCommands(commands, "ens").map((c) => c.name)).toEqual(["extensions"]);
    expect(applyCommand(commands[0]!)).toBe("/memory ");
  });
});
