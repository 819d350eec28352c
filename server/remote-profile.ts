/**
 * Remote agent profiles: `{ "url", "transport", "headers", "allowInsecure",
 * "clientCapabilities" }` in the server's config file. Like a command, a URL
 * is server configuration; the browser only names the profile. Header values
 * may hold `${VAR}`, filled from the server's environment when the agent is
 * connected, so tokens stay out of the file.
 */
import { z } from "zod";
import { describeIssues } from "../lib/protocol/contract";
import { clientCapabilitiesSchema } from "./profile-capabilities";

export class RemoteProfileError extends Error {}

const SCHEMES = {
  http: { secure: "https:", plain: "http:" },
  websocket: { secure: "wss:", plain: "ws:" },
} as const;
export type RemoteTransport = keyof typeof SCHEMES;
// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const VAR_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** localhost, 127.0.0.0/8 and ::1: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A profile entry with a `url`, as written in the config file. */
export const remoteProfileSchema = z
  .strictObject({
    url: z.string(),
    transport: z.enum(["http", "websocket"], { error: 'must be "http" or "websocket"' }),
    /** As written: `${VAR}` is expanded at connect time. */
    headers: z
      .record(
        z.string().regex(HEADER_NAME, "bad header name"),
        z.string({ error: "must be a single-line string" }).regex(/^[^\r\n\0]*$/, "must be a single-line string"),
      )
      .default({}),
    allowInsecure: z.boolean().default(false),
    description: z.string().optional(),
    /** What `initialize` advertises by default, as for a command profile: the agent's requests run on this machine. */
    clientCapabilities: clientCapabilitiesSchema.optional(),
  })
  .transform((p, ctx) => {
    const refuse = (message: string) => {
      ctx.addIssue({ code: "custom", path: ["url"], message });
      return z.NEVER;
    };
    let parsed: URL;
    try {
      parsed = new URL(p.url);
    } catch {
      return refuse(`not a valid URL: ${p.url}`);
    }
    const schemes = SCHEMES[p.transport];
    if (parsed.protocol !== schemes.secure && parsed.protocol !== schemes.plain)
      return refuse(`a ${p.transport} profile needs a ${schemes.secure}// or ${schemes.plain}// URL`);
    if (parsed.username || parsed.password)
      return refuse(`must not carry credentials; put them in "headers" with \${VAR}`);
    if (parsed.protocol === schemes.plain && !isLoopbackHost(parsed.hostname) && !p.allowInsecure)
      return refuse(
        `${parsed.protocol}// to ${parsed.hostname} is unencrypted; use ${schemes.secure}// or set "allowInsecure": true`,
      );
    return {
      url: parsed.href,
      transport: p.transport,
      headers: p.headers,
      ...(p.clientCapabilities ? { clientCapabilities: p.clientCapabilities } : {}),
    };
  });

export type RemoteProfile = z.output<typeof remoteProfileSchema>;

/** Checks one profile entry that has a `url`; throws RemoteProfileError naming the field that is wrong. */
export function parseRemoteProfile(raw: unknown): RemoteProfile {
  const parsed = remoteProfileSchema.safeParse(raw);
  if (!parsed.success) throw new RemoteProfileError(describeIssues(parsed.error));
  return parsed.data;
}

/** The headers with `${VAR}` filled from `env`; a reference to an unset variable is an error. */
export function expandHeaders(
  headers: Record<string, string>,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = value.replace(VAR_REF, (_, variable: string) => {
      const set = env[variable];
      if (set === undefined || set === "")
        throw new RemoteProfileError(
          `header "${name}" needs \${${variable}}, which is not set in the server's environment`,
        );
      if (/[\r\n\0]/.test(set)) throw new RemoteProfileError(`\${${variable}} holds a line break`);
      return set;
    });
  }
  return out;
}
