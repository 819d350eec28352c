/**
 * What a shared transcript hides of the machine it was recorded on: the workspace path and the
 * home directory, in a text or line by line in a stream (the store's shared reads, the share and
 * watch pages, the MCP server).
 */
import { homedir } from "node:os";
import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/** What a share page shows instead of the sharer's workspace path. */
export const HIDDEN_WORKSPACE = "<workspace>";

/** Hides the workspace path `cwd` and the home directory in a text, as a share page does. */
export function localPaths(cwd: string): (text: string) => string {
  const pairs: [string, string][] = [];
  if (cwd.length > 1) pairs.push([cwd, HIDDEN_WORKSPACE]);
  const home = homedir();
  if (home.length > 1 && home !== cwd) pairs.push([home, "~"]);
  return (text: string) => pairs.reduce((t, [from, to]) => t.split(from).join(to), text);
}

/**
 * Replaces the workspace path and the home directory in every line (whole
 * lines only, so a path is never cut between two chunks).
 */
export function localPathHider(cwd: string): Transform {
  const hide = localPaths(cwd);
  const decoder = new StringDecoder("utf8");
  let tail = "";
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const text = tail + decoder.write(chunk);
      const nl = text.lastIndexOf("\n");
      tail = nl === -1 ? text : text.slice(nl + 1);
      done(null, nl === -1 ? undefined : hide(text.slice(0, nl + 1)));
    },
    flush(done) {
      done(null, hide(tail + decoder.end()) || undefined);
    },
  });
}
