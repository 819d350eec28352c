/**
 * The request bodies of the relay's HTTP API (docs/relay-protocol.md#http-api),
 * each a zod schema the server parses with; clients import the types. Every
 * refusal is `{ error: { code, message } }` with a status (400 for a bad body,
 * its message naming the field).
 */
import { z } from "zod";

/** POST /api/transcripts/:id/share (an empty body is `{}`). */
export const shareBody = z.strictObject({
  /** Whether the share page may show the agent's command line and local paths. */
  showCommand: z.boolean().optional(),
});
export type ShareBody = z.input<typeof shareBody>;

/** PATCH /api/transcripts/:id */
export const renameBody = z.strictObject({
  title: z
    .string()
    .trim()
    .min(1, "must be a non-empty string of at most 200 characters")
    .max(200, "must be a non-empty string of at most 200 characters"),
});
export type RenameBody = z.input<typeof renameBody>;

/** POST /api/profiles/:name/check (an empty body is `{}`). */
export const checkBody = z.strictObject({
  /** How long initialize and session/new may each take, in ms. */
  timeoutMs: z.int("must be an integer 100..120000").min(100).max(120_000).optional(),
});
export type CheckBody = z.input<typeof checkBody>;

/** POST /api/profiles/found: adds an agent found in another client's settings, named by where and what. */
export const addFoundBody = z.strictObject({
  source: z.enum(["zed", "jetbrains"]),
  name: z.string().min(1).max(200),
});
export type AddFoundBody = z.input<typeof addFoundBody>;

/** What every refused HTTP request answers. */
export interface HttpErrorBody {
  error: { code: string; message: string };
}

/** POST /api/sign-in: the access token, exchanged for this browser's sign-in cookie. */
export const signInBody = z.strictObject({ token: z.string().min(1).max(1000) });
export type SignInBody = z.input<typeof signInBody>;

/**
 * How the server was started, so that a page without a token says where to find one:
 * `npm start` from a clone, the installed `acp-playground` command, or a team server
 * (`serve --database`) whose token its operator hands out.
 */
export type ServerStart = "npm-start" | "installed" | "team";

/** GET /api/sign-in: whether this browser signed in (then the token, for this origin's pages only). */
export type SignInState =
  { signedIn: true; token: string; start: ServerStart } | { signedIn: false; start: ServerStart };
