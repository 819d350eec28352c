import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removedOnExit } from "./removed-on-exit";

const folder = () => mkdtempSync(path.join(tmpdir(), "acp-removed-on-exit-"));

describe("removedOnExit", () => {
  it("listens to SIGINT, SIGTERM and exit only while a folder is held", () => {
    const before = ["SIGINT", "SIGTERM", "exit"].map((s) => process.listenerCount(s));
    const [a, b] = [folder(), folder()];
    const closeA = removedOnExit(a);
    const closeB = removedOnExit(b);
    expect(["SIGINT", "SIGTERM", "exit"].map((s) => process.listenerCount(s))).toEqual(before.map((n) => n + 1));
    closeA();
    expect(existsSync(a)).toBe(false);
    expect(existsSync(b)).toBe(true);
    closeB();
    closeB();
    expect(existsSync(b)).toBe(false);
    expect(["SIGINT", "SIGTERM", "exit"].map((s) => process.listenerCount(s))).toEqual(before);
  });

  it("on a signal another listener handles, removes every folder held and leaves the ending to it", () => {
    const seen: string[] = [];
    const other = (signal: string) => seen.push(signal);
    // Only ours while the signal is emitted: another file's server in this worker may listen too.
    const theirs = process.listeners("SIGTERM");
    process.removeAllListeners("SIGTERM");
    process.on("SIGTERM", other);
    try {
      const [a, b] = [folder(), folder()];
      removedOnExit(a);
      removedOnExit(b);
      process.emit("SIGTERM", "SIGTERM");
      expect([existsSync(a), existsSync(b)]).toEqual([false, false]);
      expect(seen).toEqual(["SIGTERM"]);
      expect(process.listenerCount("SIGTERM")).toBe(1);
    } finally {
      process.off("SIGTERM", other);
      for (const listener of theirs) process.on("SIGTERM", listener);
    }
  });
});
