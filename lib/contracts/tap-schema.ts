/**
 * Validation of what a tap sends: even an authenticated tap is a process the
 * relay did not start. The types are lib/contracts/tap-wire.ts's.
 */
import { z } from "zod";
import {
  TAP_BATCH_EVENTS,
  TAP_OPEN_LIMITS,
  TAP_PREVIEW_CHARS,
  TAP_STDERR_CHARS,
  type TapBatch,
  type TapEvent,
  type TapOpen,
} from "./tap-wire";

const dir = z.enum(["to-agent", "from-agent"]);
const ts = z.number().finite();

export const tapEventSchema = z.discriminatedUnion("t", [
  z.strictObject({ t: z.literal("line"), ts, dir, raw: z.string(), base64: z.base64().optional() }),
  z.strictObject({
    t: z.literal("oversize"),
    ts,
    dir,
    preview: z.string().max(TAP_PREVIEW_CHARS),
    bytes: z.number().int().nonnegative(),
  }),
  z.strictObject({ t: z.literal("stderr"), ts, text: z.string().max(TAP_STDERR_CHARS) }),
  z.strictObject({
    t: z.literal("dropped"),
    ts,
    frames: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
  }),
  z.strictObject({
    t: z.literal("exit"),
    ts,
    code: z.number().int().nullable(),
    signal: z.string().max(40).nullable(),
  }),
]) satisfies z.ZodType<TapEvent>;

const L = TAP_OPEN_LIMITS;
export const tapOpenSchema = z.strictObject({
  profile: z.string().max(L.profile),
  command: z.string().max(L.command),
  args: z
    .array(z.string().max(L.arg))
    .max(L.args)
    .refine((args) => args.reduce((n, a) => n + a.length, 0) <= L.argsChars, {
      message: `at most ${L.argsChars} characters of arguments in all`,
    }),
  cwd: z.string().max(L.cwd),
  pid: z.number().int().positive(),
  startedAt: ts.optional(),
}) satisfies z.ZodType<TapOpen>;

/** The count is checked before any event is looked at: an oversized batch costs one pass, not a parse per event. */
export const tapBatchSchema = z.strictObject({
  n: z.number().int().positive(),
  events: z.array(z.unknown()).max(TAP_BATCH_EVENTS).pipe(z.array(tapEventSchema)),
}) satisfies z.ZodType<TapBatch, unknown>;

/** `tap:injection` from a tab watching a tap: for itself. */
export const tapInjectionSchema = z.strictObject({ enabled: z.boolean() });
/** `tap:injection` from a socket watching the taps list: for the viewer named. */
export const tapInjectionForSchema = z.strictObject({ clientId: z.string().max(200), enabled: z.boolean() });
