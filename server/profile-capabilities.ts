/**
 * A profile's `clientCapabilities` in the config file: what `initialize`
 * advertises by default, for command, registry and URL profiles alike. What is
 * advertised is all the relay serves (lib/protocol/client-capabilities notAdvertised).
 */
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { z } from "zod";

/** fs flags and `terminal` absent are false. */
export const clientCapabilitiesSchema = z
  .strictObject({
    fs: z.strictObject({ readTextFile: z.boolean().optional(), writeTextFile: z.boolean().optional() }).optional(),
    terminal: z.boolean().optional(),
    _meta: z.record(z.string(), z.unknown()).optional(),
  })
  .transform((c): ClientCapabilities => ({
    fs: { readTextFile: c.fs?.readTextFile === true, writeTextFile: c.fs?.writeTextFile === true },
    terminal: c.terminal === true,
    ...(c._meta ? { _meta: c._meta } : {}),
  }));
