import { describe, expect, it } from "vitest";
import {
  EXPORT_META_ID,
  exportCsp,
  inlineScriptCode,
  redactTranscript,
  renderExportPage,
  scriptJson,
} from "./export-page";
import { REDACTED } from "./redact";
import { parseTranscript, TranscriptError } from "../contracts/transcript";

const header = {
  type: "header",
  format: "acp-playground-transcript",
  version: "1.0",
  id: "20260101-000000-abcdef01",
  createdAt: "2026-01-01T00:00:00.000Z",
  playground: { version: "0.1.0" },
  agent: { profile: "stub", command: "agent", args: ["--key=sekrit-value"], cwd: "/w" },
};
const frame = (seq: number, raw: object) =>
  JSON.stringify({ type: "frame", seq, ts: 1000 + seq, dir: "to-agent", raw: JSON.stringify(raw), kind: "request" });

describe("redactTranscript", () => {
  it("replaces secret values anywhere and credential fields in frames, counting them", () => {
    const text = [
      JSON.stringify(header),
      frame(1, { jsonrpc: "2.0", id: 1, method: "x", params: { note: "sekrit-value", apiKey: "other" } }),
      JSON.stringify({ type: "stderr", ts: 5, text: "token sekrit-value" }),
      "",
    ].join("\n");
    const r = redactTranscript(text, ["sekrit-value"]);
    expect(r.text).not.toContain("sekrit-value");
    expect(r.text).not.toContain('"other"');
    expect(r.redactions).toBe(4); // args, note, apiKey, stderr
    const parsed = parseTranscript(r.text);
    expect(parsed.redactions).toBe(3); // the frame (note + apiKey) and the stderr line say so
    expect(parsed.frames[0]!.raw).toContain(REDACTED);
  });

  it("refuses what is not a transcript", () => {
    expect(() => redactTranscript("<html>", [])).toThrow(TranscriptError);
  });
});

describe("the export page", () => {
  const parts = {
    title: "</title><script>alert(1)</script>",
    script: inlineScriptCode('var s="</script><!-- x";'),
    scriptHash: "abc=",
    css: "body{color:red}</style><b>x</b>",
    data: "H4sIAAAAAAAA/w==",
    meta: { exportedAt: "now", redactions: 0, title: "</script><script>window.__pwned=1</script>\u2028" },
  };

  it("lets nothing out of its elements", () => {
    const html = renderExportPage(parts);
    // Exactly the three script elements of the page, each closed once.
    expect(html.match(/<script/gi)).toHaveLength(3);
    expect(html.match(/<\/script/gi)).toHaveLength(3);
    expect(html.match(/<\/style/gi)).toHaveLength(1);
    expect(html).not.toContain("<!--");
    expect(html).not.toContain("\u2028");
    expect(html).toContain("&lt;/title&gt;");
  });

  it("carries the meta as JSON that reads back unchanged", () => {
    const html = renderExportPage(parts);
    const json = new RegExp(`<script id="${EXPORT_META_ID}" type="application/json">(.*?)</script>`).exec(html)![1]!;
    expect(JSON.parse(json)).toEqual(parts.meta);
    expect(JSON.parse(scriptJson("<&>"))).toBe("<&>");
  });

  it("keeps the code's meaning when escaping it", () => {
    const code = inlineScriptCode('globalThis.out = ["</script>", "<!--", /<\\/script>/.source];');
    const g = globalThis as { out?: unknown };
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- Running the escaped code is the point: it must still mean what it meant.
    new Function(code)();
    expect(g.out).toEqual(["</script>", "<!--", "<\\/script>"]);
    delete g.out;
  });

  it("refuses data that is not base64, and allows no network in its CSP", () => {
    expect(() => renderExportPage({ ...parts, data: "</script>" })).toThrow();
    const csp = exportCsp("h");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'sha256-h'");
    expect(csp).not.toMatch(/https?:|\*/);
  });
});
