/**
 * docs/scaling.md's how-to cannot drift from the code: every `acp-playground` flag its commands
 * give is one the command's help lists (server/cli/cli-usage.ts), every variable it sets or names
 * is read by the relay or by docs/haproxy.cfg, the balancer's command lines set exactly the
 * variables haproxy.cfg reads, and every `METHOD /api/...` route it or the relay protocol names is
 * answered by a real relay (not `no route`). The balancer file itself is checked by
 * cluster-team.test.ts, which runs it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../server/cli/cli-usage";
import { startTestRelay, type TestRelay } from "../relay-harness";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const scaling = read("docs/scaling.md");
const haproxyCfg = read("docs/haproxy.cfg");

/** The lines of the doc's ```sh blocks, comments cut off, and the commands quoted in its text. */
function shellLines(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, "");
  const quoted = [...prose.matchAll(/`([^`]*\bacp-playground [^`]*)`/g)].map((m) => m[1]!.replace(/\s+/g, " "));
  return blocks
    .flatMap((b) => b.split("\n"))
    .map((l) => l.replace(/(^|\s)#\s.*$/, "").trim())
    .concat(quoted)
    .filter((l) => l !== "");
}

/** Every variable the relay's code reads by name (server/, tests left out). */
function relayVariables(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const file = path.join(dir, entry);
      if (statSync(file).isDirectory()) walk(file);
      else if (/(?<!\.test)\.ts$/.test(entry))
        for (const m of readFileSync(file, "utf8").matchAll(/env\.([A-Z][A-Z0-9_]*)|["'`]([A-Z][A-Z0-9_]*)["'`]/g))
          names.add(m[1] ?? m[2]!);
    }
  };
  walk(path.join(root, "server"));
  return names;
}

const haproxyVariables = new Set([...haproxyCfg.matchAll(/"\$\{([A-Z_]+)\}"/g)].map((m) => m[1]!));

describe("docs/scaling.md against the code", () => {
  const lines = shellLines(scaling);

  it("gives only flags its commands have", () => {
    const seen = new Set<string>();
    for (const line of lines) {
      for (const m of line.matchAll(/\bacp-playground((?:\s+[^\s|;&]+)*)/g)) {
        const words = m[1]!.trim().split(/\s+/).filter(Boolean);
        const end = words.indexOf("--");
        const own = end < 0 ? words : words.slice(0, end);
        const command = own[0] && COMMANDS[own[0]] ? own[0] : "serve";
        seen.add(command);
        const help = `${COMMANDS[command]!.synopsis}\n${COMMANDS[command]!.details}`;
        for (const flag of own.filter((w) => w.startsWith("--")).map((w) => w.split("=")[0]!))
          expect(help, `${line}: ${flag}`).toMatch(new RegExp(`(^|[\\s\\[])${flag}(?![\\w-])`, "m"));
      }
    }
    // The how-to starts instances, records and publishes: a change that hid them from this test fails it.
    for (const command of ["serve", "record", "publish"]) expect(seen).toContain(command);
  });

  it("sets and names only variables the relay or haproxy.cfg reads", () => {
    const relay = relayVariables();
    const set = new Set(lines.flatMap((l) => [...l.matchAll(/(?:^|[\s'"])([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]!)));
    const named = new Set([...scaling.matchAll(/\bACP_PLAYGROUND_[A-Z0-9_]*[A-Z0-9]\b(?!_)/g)].map((m) => m[0]));
    expect(set.size).toBeGreaterThan(5);
    for (const name of new Set([...set, ...named]))
      expect(relay.has(name) || haproxyVariables.has(name), `${name}: read by nothing`).toBe(true);
  });

  it("starts the balancer with exactly the addresses haproxy.cfg reads", () => {
    const starts = lines.filter((l) => /\bhaproxy -db -f\b/.test(l) || l.includes("/etc/default/haproxy"));
    expect(starts.length).toBeGreaterThanOrEqual(2);
    expect(haproxyVariables.size).toBeGreaterThan(0);
    for (const line of starts) {
      const given = new Set([...line.matchAll(/(?:^|[\s'\\n])n?([A-Z][A-Z_]*)=/g)].map((m) => m[1]!));
      expect([...given].sort(), line).toEqual([...haproxyVariables].sort());
    }
  });
});

describe("the routes the docs name", () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterAll(() => relay.close());

  it("are each answered by a relay", async () => {
    const routes = new Set<string>();
    for (const doc of ["docs/scaling.md", "docs/relay-protocol.md"])
      for (const m of read(doc).matchAll(/`(GET|POST|PATCH|PUT|DELETE) (\/api\/[^`\s?]*)/g))
        routes.add(`${m[1]} ${m[2]}`);
    expect(routes.size).toBeGreaterThan(20);
    expect(routes).toContain("POST /api/watch");
    for (const route of routes) {
      const [method, pattern] = route.split(" ") as [string, string];
      // Placeholders become ids nothing has: a route that exists says so; one that does not says `no route`.
      const url = pattern.replace(/:\w+/g, "no-such-id");
      const res = await fetch(`${relay.url}${url}`, { method, headers: { authorization: "Bearer test-token" } });
      const body = await res.text();
      expect(body, route).not.toMatch(/no route/);
    }
  });
});
