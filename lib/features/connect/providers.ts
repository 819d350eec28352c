/**
 * `providers/list|set|disable` (unstable): what the agent lists, read as hostile input
 * (at most MAX_PROVIDERS, ids and protocols bounded), and the requests that point a
 * provider at a model endpoint or disable it.
 */
import { isObject, str } from "../../protocol/json";
import { AGENT_METHODS } from "../../protocol/methods";

export const MAX_PROVIDERS = 50;
const MAX_ID = 200;

export interface ProviderView {
  providerId: string;
  supported: string[];
  required: boolean;
  current?: { apiType: string; baseUrl: string };
}

export function readProviders(result: unknown): { providers: ProviderView[]; dropped: number } {
  const list = isObject(result) && Array.isArray(result.providers) ? result.providers : [];
  const providers: ProviderView[] = [];
  let dropped = Math.max(0, list.length - MAX_PROVIDERS);
  for (const p of list.slice(0, MAX_PROVIDERS)) {
    const id = isObject(p) ? str(p.providerId) : undefined;
    if (!isObject(p) || !id || id.length > MAX_ID) {
      dropped++;
      continue;
    }
    const supported = (Array.isArray(p.supported) ? p.supported : [])
      .filter((s): s is string => typeof s === "string" && s.length <= MAX_ID)
      .slice(0, 20);
    const cur = isObject(p.current) ? p.current : undefined;
    const apiType = str(cur?.apiType);
    const baseUrl = str(cur?.baseUrl);
    providers.push({
      providerId: id,
      supported,
      required: p.required === true,
      ...(apiType && baseUrl ? { current: { apiType, baseUrl: baseUrl.slice(0, 2_000) } } : {}),
    });
  }
  return { providers, dropped };
}

/** providers/set's request, or why not: the URL must be http(s). */
export function setProviderRequest(
  providerId: string,
  apiType: string,
  baseUrl: string,
): { method: string; params: Record<string, unknown> } | { error: string } {
  const url = baseUrl.trim();
  if (!apiType) return { error: "choose an API type" };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (!scheme) return { error: "the base URL is not a URL" };
  if ((scheme !== "https" && scheme !== "http") || !/^https?:\/\/[^\s/?#]+/i.test(url) || /\s/.test(url))
    return { error: "the base URL must be http(s)" };
  return { method: AGENT_METHODS.providers_set, params: { providerId, apiType, baseUrl: url } };
}
