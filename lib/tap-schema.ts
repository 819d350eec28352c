/**
 * Validation of what a tap sends: even an authenticated tap is a process the
 * relay did not start. The types are lib/tap-wire.ts's.
 */
import { z } from "zod";
import type { TapBatch, TapEvent, TapOpen } from "./tap-wire";

const dir = z.enum(["to-agent", "from-agent"]);
const ts = z.number().finite();

export const tapEventSchema = z.discriminatedUnion("t", [
  z.strictObject({ t: z.literal("line"), ts, dir, raw: z.string() }),
  z.strictObject({ t: z.literal("oversize"), ts, dir, preview: z.string(), bytes: z.number().int().nonnegative() }),
  z.strictObject({ t: z.literal("stderr"), ts, text: z.string() }),
  z.strictObject({
    t: z.literal("dropped"),
    ts,
    frames: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
  }),
  z.strictObject({ t: z.literal("exit"), ts, code: z.number().int().nullable(), signal: z.string().nullable() }),
]) satisfies z.ZodType<TapEvent>;

export const tapOpenSchema = z.strictObject({
  profile: z.string().max(200),
  command: z.string().max(4096),
  args: z.array(z.string().max(65536)).max(1000),
  cwd: z.string().max(4096),
  pid: z.number().int().positive(),
}) satisfies z.ZodType<TapOpen>;

export const tapBatchSchema = z.strictObject({
  n: z.number().int().positive(),
  events: z.array(tapEventSchema),
}) satisfies z.ZodType<TapBatch>;

/** `tap:injection` from a tab watching a tap: for itself. */
export const tapInjectionSchema = z.strictObject({ enabled: z.boolean() });
/** `tap:injection` from a socket watching the taps list: for the viewer named. */
export const tapInjectionForSchema = z.strictObject({ clientId: z.string().max(200), enabled: z.boolean() });
