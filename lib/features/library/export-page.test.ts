import { describe, expect, it } from "vitest";
import {
  EXPORT_META_ID,
  exportCsp,
  EXPORT_LOADER,
  redactTranscript,
  renderExportPage,
  scriptJson,
} from "./export-page";
import { REDACTED } from "./redact";
import { parseTranscript, TranscriptError } from "../../contracts/transcript";

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
    code: "H4sIAAAAAAAA/w==",
    codeHash: "abc=",
    loaderHash: "def=",
    css: "H4sIAAAAAAAA/w==",
    data: "H4sIAAAAAAAA/w==",
    schemas: { stable: "H4sIAAAAAAAA/w==" },
    meta: { exportedAt: "now", redactions: 0, title: "</script><script>window.__pwned=1</script>\u2028" },
  };

  it("lets nothing out of its elements: inert blocks of base64, one loader", () => {
    const html = renderExportPage(parts);
    // The meta, the transcript, one schema, the CSS, the code, and the loader: each closed once.
    expect(html.match(/<script/gi)).toHaveLength(6);
    expect(html.match(/<\/script/gi)).toHaveLength(6);
    expect(html.match(/<script>/gi)).toHaveLength(1);
    expect(html).toContain(`<script>${EXPORT_LOADER}</script>`);
    expect(html).not.toContain("<style");
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

  it("refuses blocks that are not base64, and allows no network and only the loader and the code in its CSP", () => {
    expect(() => renderExportPage({ ...parts, data: "</script>" })).toThrow();
    expect(() => renderExportPage({ ...parts, code: "alert(1)" })).toThrow();
    expect(() => renderExportPage({ ...parts, schemas: { v2: "<b>" } })).toThrow();
    const csp = exportCsp("l", "c");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'sha256-l' 'sha256-c';");
    expect(csp).not.toMatch(/https?:|\*|unsafe-eval/);
  });
});
