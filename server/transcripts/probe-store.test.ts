import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ProbeReport } from "../../lib/contracts/reports";
import { ProbeStore } from "./probe-store";

const base = realpathSync(mkdtempSync(path.join(tmpdir(), "probe-store-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const report: ProbeReport = { profile: "p", startedAt: new Date().toISOString(), durationMs: 1, rows: [] };
const mode = (p: string) => statSync(p).mode & 0o777;

describe("probe store", () => {
  it("creates its directory 0700 and reports 0600, as the transcript store does", () => {
    const store = new ProbeStore(path.join(base, "fresh"));
    const kept = store.save(report);
    expect(mode(store.dir)).toBe(0o700);
    expect(mode(path.join(store.dir, `${kept.id}.json`))).toBe(0o600);
    expect(store.get(kept.id)).toMatchObject({ profile: "p" });
  });

  it("closes a store made before reports were private", () => {
    const dir = path.join(base, "old", "probes");
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    const file = path.join(dir, "20260101-000000-00000000.json");
    writeFileSync(file, JSON.stringify(report), { mode: 0o644 });
    chmodSync(file, 0o644);
    const store = new ProbeStore(path.join(base, "old"));
    expect(mode(store.dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
  });
});
