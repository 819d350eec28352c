import { describe, expect, it } from "vitest";
import { dataDirFor } from "./runtime";

describe("dataDirFor", () => {
  it("is ACP_PLAYGROUND_DATA, else the user's data home, never the folder it runs in", () => {
    expect(dataDirFor({ ACP_PLAYGROUND_DATA: "d" }, "/proj", "linux", "/home/u")).toBe("/proj/d");
    expect(dataDirFor({ XDG_DATA_HOME: "/x" }, "/proj", "linux", "/home/u")).toBe("/x/acp-playground");
    expect(dataDirFor({}, "/proj", "linux", "/home/u")).toBe("/home/u/.local/share/acp-playground");
    expect(dataDirFor({ XDG_DATA_HOME: "rel" }, "/proj", "linux", "/home/u")).toBe(
      "/home/u/.local/share/acp-playground",
    );
    expect(dataDirFor({}, "/proj", "darwin", "/Users/u")).toBe("/Users/u/Library/Application Support/acp-playground");
  });
});
