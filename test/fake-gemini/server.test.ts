import { afterEach, describe, expect, it } from "vitest";
import { startFakeGeminiApi, type FakeGeminiApi } from "./server";

let api: FakeGeminiApi | undefined;
afterEach(() => api?.close());

/** The text a streamGenerateContent call to `model` streams back. */
async function turnText(model: string): Promise<string> {
  const res = await fetch(`${api!.url}/v1beta/models/${model}:streamGenerateContent?alt=sse`, {
    method: "POST",
    body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
  });
  const events = (await res.text()).split("\n\n").filter((e) => e.startsWith("data: "));
  return events
    .map((e) => JSON.parse(e.slice(6)) as { candidates: [{ content: { parts: [{ text?: string }] } }] })
    .map((e) => e.candidates[0].content.parts[0].text ?? "")
    .join("");
}

describe("fake Gemini API", () => {
  it("plays turns in order; a turn scripted for a model waits for a call to that model", async () => {
    api = await startFakeGeminiApi();
    // Two agents sharing the API: the flash side loops twice before the pro side's first call.
    api.script(
      { model: "gemini-2.5-pro", parts: [{ text: "pro 1" }] },
      { model: "gemini-2.5-flash", parts: [{ text: "flash 1" }] },
      { parts: [{ text: "anyone" }] },
      { model: "gemini-2.5-flash", parts: [{ text: "flash 2" }] },
    );
    expect(await turnText("gemini-2.5-flash")).toBe("flash 1");
    expect(await turnText("gemini-2.5-flash")).toBe("anyone");
    expect(await turnText("gemini-2.5-flash")).toBe("flash 2");
    expect(await turnText("gemini-2.5-pro")).toBe("pro 1");
    expect(await turnText("gemini-2.5-pro")).toBe("Echo: hi");
  });

  it("a script posted with replace drops the turns still queued (a failed test's leftovers)", async () => {
    api = await startFakeGeminiApi();
    const post = (body: object) => fetch(`${api!.url}/__fake/script`, { method: "POST", body: JSON.stringify(body) });
    await post({ turns: [{ parts: [{ text: "left over" }] }] });
    expect((await post({ turns: [{ parts: [{ text: "mine" }] }], replace: true })).status).toBe(204);
    expect(await turnText("gemini-2.5-flash")).toBe("mine");
    expect(await turnText("gemini-2.5-flash")).toBe("Echo: hi");
  });
});
