/** /api/comparisons as the compare pages use it (docs/relay-protocol.md#http-api). */
import type { ComparisonInput, ComparisonRecord, SharedComparison } from "@/lib/contracts/compare-format";
import { authHeaders, errorOf } from "../transcripts/api";

async function call<T>(token: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(path, {
    ...init,
    cache: "no-store",
    headers: { ...authHeaders(token), ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers },
  });
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as T;
}

export const comparisonUrl = (id: string) => `/api/comparisons/${encodeURIComponent(id)}`;
/** The read-only page a comparison's share link opens. */
export const comparisonSharePageUrl = (id: string, shareToken: string) =>
  `${window.location.origin}/compare/shared/${encodeURIComponent(id)}?token=${encodeURIComponent(shareToken)}`;

export function compareApi(token: string) {
  return {
    list: () => call<{ comparisons: ComparisonRecord[] }>(token, "/api/comparisons").then((b) => b.comparisons),
    get: (id: string) => call<ComparisonRecord>(token, comparisonUrl(id)),
    save: (input: ComparisonInput) =>
      call<ComparisonRecord>(token, "/api/comparisons", { method: "POST", body: JSON.stringify(input) }),
    share: (id: string) => call<ComparisonRecord>(token, `${comparisonUrl(id)}/share`, { method: "POST" }),
    workspaces: () =>
      call<{ cwd: [string, string]; paths: [string, string] }>(token, "/api/comparisons/workspaces", {
        method: "POST",
      }),
  };
}

/** A shared comparison, with no access token: only the share link's. */
export async function fetchSharedComparison(id: string, shareToken: string): Promise<SharedComparison> {
  const res = await fetch(`${comparisonUrl(id)}/shared?token=${encodeURIComponent(shareToken)}`, { cache: "no-store" });
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as SharedComparison;
}
