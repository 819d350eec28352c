/**
 * `acp-playground serve --otlp URL`, then "Send to …" on the Transcripts page and in the transcript
 * view: the shipped demo reaches a throw-away OTLP receiver (test/otlp-receiver.ts, decoding with
 * OpenTelemetry's protobuf definitions), with the progress and the backend's answer on the page.
 */
import { execa } from "execa";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startOtlpReceiver } from "../test/otlp-receiver";

const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "bin/acp-playground.mjs");
const TOKEN = "otel-send";

test("Send to … sends the demo to the serve --otlp endpoint and shows the backend's answer", async ({ page }) => {
  const tmp = realpathSync(mkdtempSync(path.join(tmpdir(), "acp-otel-send-")));
  const receiver = await startOtlpReceiver({ requireHeader: ["authorization", "Basic cGs6c2s="] });
  const server = execa(
    process.execPath,
    [bin, "--no-open", "--port", "0", "--otlp", receiver.url, "--otlp-header", "Authorization=Basic cGs6c2s="],
    {
      cwd: tmp,
      reject: false,
      env: { HOME: tmp, ACP_PLAYGROUND_TOKEN: TOKEN, ACP_PLAYGROUND_DATA: path.join(tmp, "data") },
    },
  );
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      let out = "";
      server.stdout.on("data", (d: Buffer) => {
        out += String(d);
        const m = new RegExp(`(http://127\\.0\\.0\\.1:\\d+)/\\?token=${TOKEN}\\s`).exec(out);
        if (m) resolve(m[1]!);
      });
      void server.then((r) => reject(new Error(`exited: ${r.stderr}`)));
    });
    const host = new URL(receiver.url).host;

    await page.goto(`${origin}/transcripts?token=${TOKEN}`);
    const demo = page.locator('[data-testid="transcript-row"][data-id="demo-gemini"]');
    // A rare action of the row, under More; its status shows in the row once the menu closes.
    await demo.getByTestId("row-more").click();
    const send = demo.getByTestId("send-otlp");
    await expect(send).toHaveText(`Send to ${host}`);
    await send.click();
    await expect(demo.getByTestId("send-otlp-status")).toHaveText(`${host} accepted 4 spans in 2 traces`);
    expect(receiver.spans.size).toBe(4);
    const turns = [...receiver.spans.values()].filter((s) => !s.parentSpanId);
    expect(turns.map((s) => s.attributes["acp_playground.frame.url"]).sort()).toEqual([
      `${origin}/transcripts/demo-gemini#seq=13`,
      `${origin}/transcripts/demo-gemini#seq=6`,
    ]);

    // The transcript view: a backend that refuses shows its status and answer.
    receiver.failWith = 403;
    await page.goto(`${origin}/transcripts/demo-gemini`);
    await page.getByTestId("send-otlp").click();
    await expect(page.getByTestId("send-otlp-status")).toContainText(
      `OTLP export to ${receiver.url}/v1/traces failed: HTTP 403`,
    );
  } finally {
    server.kill("SIGTERM");
    await server;
    await receiver.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
