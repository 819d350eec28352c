import { describe, expect, it } from "vitest";
import { MAX_PROVIDERS, readProviders, setProviderRequest } from "./providers";

describe("providers", () => {
  it("reads the agent's list, bounded, dropping what is not a provider", () => {
    const r = readProviders({
      providers: [
        { providerId: "main", supported: ["openai", 3], required: true, current: { apiType: "openai", baseUrl: "u" } },
        { supported: [] },
        "x",
      ],
    });
    expect(r).toEqual({
      providers: [
        { providerId: "main", supported: ["openai"], required: true, current: { apiType: "openai", baseUrl: "u" } },
      ],
      dropped: 2,
    });
    const many = readProviders({
      providers: Array.from({ length: MAX_PROVIDERS + 4 }, (_, i) => ({ providerId: `p${i}` })),
    });
    expect(many.providers.length).toBe(MAX_PROVIDERS);
    expect(many.dropped).toBe(4);
    expect(readProviders(null)).toEqual({ providers: [], dropped: 0 });
  });

  it("builds providers/set, refusing a base URL that is not http(s)", () => {
    expect(setProviderRequest("main", "openai", " http://127.0.0.1:9/v1 ")).toEqual({
      method: "providers/set",
      params: { providerId: "main", apiType: "openai", baseUrl: "http://127.0.0.1:9/v1" },
    });
    expect(setProviderRequest("main", "openai", "file:///etc/passwd")).toEqual({
      error: "the base URL must be http(s)",
    });
    expect(setProviderRequest("main", "openai", "nope")).toEqual({ error: "the base URL is not a URL" });
    expect(setProviderRequest("main", "", "http://x")).toEqual({ error: "choose an API type" });
  });
});
