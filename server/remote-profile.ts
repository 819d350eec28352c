/**
 * Remote agent profiles: `{ "url", "transport", "headers", "allowInsecure" }`
 * in the server's config file. Like a command, a URL is server configuration;
 * the browser only names the profile. Header values may hold `${VAR}`, filled
 * from the server's environment when the agent is connected, so tokens stay
 * out of the file.
 */
export type RemoteTransport = "http" | "websocket";

export interface RemoteProfile {
  url: string;
  transport: RemoteTransport;
  /** As written in the config: `${VAR}` is expanded at connect time. */
  headers: Record<string, string>;
}

export class RemoteProfileError extends Error {}

const SCHEMES: Record<RemoteTransport, { secure: string; plain: string }> = {
  http: { secure: "https:", plain: "http:" },
  websocket: { secure: "wss:", plain: "ws:" },
};
const KEYS = ["url", "transport", "headers", "allowInsecure", "description"];
// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const VAR_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** localhost, 127.0.0.0/8 and ::1: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Checks one profile entry that has a `url`; throws RemoteProfileError saying what is wrong. */
export function parseRemoteProfile(raw: Record<string, unknown>): RemoteProfile {
  const extra = Object.keys(raw).filter((k) => !KEYS.includes(k));
  if (extra.length) throw new RemoteProfileError(`unknown field(s) for a URL profile: ${extra.join(", ")}`);
  const { url, transport, headers = {}, allowInsecure = false } = raw;
  if (transport !== "http" && transport !== "websocket")
    throw new RemoteProfileError(`"transport" must be "http" or "websocket"`);
  if (typeof url !== "string") throw new RemoteProfileError(`"url" must be a string`);
  if (typeof allowInsecure !== "boolean") throw new RemoteProfileError(`"allowInsecure" must be a boolean`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RemoteProfileError(`"url" is not a valid URL: ${url}`);
  }
  const schemes = SCHEMES[transport];
  if (parsed.protocol !== schemes.secure && parsed.protocol !== schemes.plain)
    throw new RemoteProfileError(`a ${transport} profile needs a ${schemes.secure}// or ${schemes.plain}// URL`);
  if (parsed.username || parsed.password)
    throw new RemoteProfileError(`"url" must not carry credentials; put them in "headers" with \${VAR}`);
  if (parsed.protocol === schemes.plain && !isLoopbackHost(parsed.hostname) && !allowInsecure)
    throw new RemoteProfileError(
      `${parsed.protocol}// to ${parsed.hostname} is unencrypted; use ${schemes.secure}// or set "allowInsecure": true`,
    );
  if (typeof headers !== "object" || headers === null || Array.isArray(headers))
    throw new RemoteProfileError(`"headers" must map names to strings`);
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new RemoteProfileError(`bad header name "${name}"`);
    if (typeof value !== "string" || /[\r\n\0]/.test(value))
      throw new RemoteProfileError(`header "${name}" must be a single-line string`);
  }
  return { url: parsed.href, transport, headers: headers as Record<string, string> };
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
