import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import schemaFile from "./app-server-schema.json";

const pinned = JSON.parse(readFileSync(new URL("../../test/agents/package.json", import.meta.url), "utf8")) as {
  dependencies: Record<string, string>;
};

describe("the app-server schema kept in the repository", () => {
  it("comes from the pinned Codex (after a bump: npm run schema:app-server)", () => {
    expect(schemaFile.codexVersion).toBe(pinned.dependencies["@openai/codex"]);
  });
});
