/**
 * Which thrown errors a client is told the words of. One raised on purpose for whoever asked (a
 * RelayFailure, SpawnError being one, or a transcript's TranscriptError) keeps them; any other (a
 * TypeError, a database driver's, a file system's with its path) is the operator's: the relay's log
 * gets it whole and the client a fixed message, since on a team server the asker may be anyone.
 */
import { TranscriptError } from "../lib/contracts/transcript";
import type { RelayError } from "../lib/contracts/wire";

/** What a client is told of an error it was not meant to read (HTTP and Socket.IO alike). */
export const INTERNAL_ERROR = "the relay failed to answer this request (its log says why)";

/** An error whose relay error is meant for whoever asked: thrown, it is answered as is. */
export class RelayFailure extends Error {
  constructor(readonly relayError: RelayError) {
    super(relayError.message);
  }
}

/** The answer to a client for `err`, thrown while serving `where` (an event's name); logged when it is not the client's. */
export function failureOf(err: unknown, where: string): RelayError {
  if (err instanceof RelayFailure) return err.relayError;
  if (err instanceof TranscriptError) return { code: "internal", message: err.message };
  console.error(`${where}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return { code: "internal", message: INTERNAL_ERROR };
}
