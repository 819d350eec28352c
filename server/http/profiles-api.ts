/**
 * /api/profiles/:name/check: the doctor's check of one profile; /api/profiles/found: agents configured
 * for other clients on this machine, and adding one (docs/relay-protocol.md#http-api).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { addFoundBody, checkBody } from "../../lib/contracts/http-api";
import { addFoundAgent, foundViews } from "../agents/found-agents";
import { checkProfile } from "../agents/doctor-check";
import { readJsonBody, sendError, sendJson } from "../wire/http-io";
import type { Relay } from "./relay";
import type { Identity } from "./identities";

/** Why a person may not look for or add agents on the server's machine: that is its admin's. */
export const FOUND_AGENTS_REFUSAL =
  "only the server's admin can look for agents on its machine or add one: adding one rewrites its config file, which holds every person's token";

export async function handleProfilesApi(
  req: IncomingMessage,
  res: ServerResponse,
  parts: string[],
  relay: Relay,
  /** Who the request's token is: a person (a named token) or the admin. */
  who: Identity,
): Promise<void> {
  const method = req.method ?? "GET";
  const name = parts[1];
  if (parts.length === 2 && name === "found") {
    // The operator's own settings (Zed's, JetBrains') and the file of tokens: not a person's to read or rewrite.
    if (who.owner !== undefined) return sendError(res, 403, "not_owner", FOUND_AGENTS_REFUSAL);
    if (method === "GET")
      return sendJson(res, 200, { ...foundViews(relay.config), configFile: relay.config.configFile ?? null });
    if (method === "POST") {
      const body = await readJsonBody(req, addFoundBody, 4 * 1024);
      if (!body.ok) return sendError(res, 400, "invalid_payload", body.error);
      const added = addFoundAgent(relay.config, body.value.source, body.value.name);
      return added.ok ? sendJson(res, 201, added.value) : sendError(res, 400, "not_added", added.error);
    }
  }
  if (parts.length === 3 && name !== undefined && parts[2] === "check" && method === "POST") {
    const body = await readJsonBody(req, checkBody, 4 * 1024, {});
    if (!body.ok) return sendError(res, 400, "invalid_payload", body.error);
    let profile: string;
    try {
      profile = decodeURIComponent(name);
    } catch {
      return sendError(res, 400, "invalid_payload", "the profile name is not a valid URL component");
    }
    const checked = await checkProfile(relay.profiles, relay.config, profile, body.value.timeoutMs);
    if (!checked.ok)
      return sendError(
        res,
        checked.error.code === "unknown_profile" ? 404 : 400,
        checked.error.code,
        checked.error.message,
      );
    return sendJson(res, 200, checked.value);
  }
  return sendError(res, 404, "not_found", `no route: ${method} /api/${parts.join("/").slice(0, 200)}`);
}
