/**
 * Who a token is. The relay's own token (ACP_PLAYGROUND_TOKEN) is the operator's and names no
 * one; a team server may also give each person a named token (the config file's "tokens"), and
 * what they record carries their name as its owner. Revoking one is editing the config file: it
 * is read again when it changes (checked on every authentication and once a second), and the
 * revoked person's open sockets are closed. A config file that no longer reads refuses every
 * named token until it is fixed (the relay's own token still works): a typo must not let a
 * revoked token back in.
 */
import { statSync } from "node:fs";
import { ConfigError, readTokens } from "../config";
import { tokenMatches } from "../tokens";

/** Someone the relay let in: `owner` is their name, absent for the relay's own token. */
export interface Identity {
  owner?: string;
}

const RECHECK_MS = 1_000;

export class Identities {
  private tokens: [name: string, token: string][];
  private stamp: string;
  private timer: NodeJS.Timeout | undefined;
  /** Watched only when it names tokens ("tokens": {} included): adding the key needs a restart. */
  private readonly file: string | undefined;
  private readonly revokedListeners = new Set<(names: Set<string>) => void>();

  constructor(
    private readonly mainToken: string,
    /** The config file's named tokens; undefined when it names none (then nothing is watched). */
    tokens: Record<string, string> | undefined,
    /** The config file to read again when it changes; undefined: the tokens never change. */
    file?: string,
  ) {
    this.file = tokens === undefined ? undefined : file;
    this.tokens = this.checked(tokens ?? {}, true);
    this.stamp = this.fileStamp();
    if (this.file) this.timer = setInterval(() => this.refresh(), RECHECK_MS).unref();
  }

  /** Who `given` is, or undefined when it lets no one in. */
  who(given: unknown): Identity | undefined {
    if (tokenMatches(given, this.mainToken)) return {};
    this.refresh();
    // Every named token is compared (constant time each), so the answer's time says nothing of which matched.
    let owner: string | undefined;
    for (const [name, token] of this.tokens) if (tokenMatches(given, token)) owner = name;
    return owner === undefined ? undefined : { owner };
  }

  /** The named tokens as they are now (the config file read again if it changed). */
  named(): string[] {
    this.refresh();
    return this.tokens.map(([, token]) => token);
  }

  /** Names whose token stopped working, each time the config file's tokens change; returns what stops hearing them. */
  onRevoked(listener: (names: Set<string>) => void): () => void {
    this.revokedListeners.add(listener);
    return () => void this.revokedListeners.delete(listener);
  }

  close(): void {
    clearInterval(this.timer);
  }

  private checked(tokens: Record<string, string>, atStart: boolean): [string, string][] {
    const entries = Object.entries(tokens).filter(([name, token]) => {
      if (token !== this.mainToken) return true;
      const why = `the token named "${name}" is the relay's own token (ACP_PLAYGROUND_TOKEN)`;
      if (atStart) throw new ConfigError(why);
      console.error(`config file ${this.file}: ${why}: refused`);
      return false;
    });
    return entries;
  }

  private fileStamp(): string {
    if (!this.file) return "";
    try {
      const s = statSync(this.file);
      return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
    } catch {
      return "missing";
    }
  }

  /** Reads the tokens again if the file changed since they were read. */
  refresh(): void {
    if (!this.file) return;
    const stamp = this.fileStamp();
    if (stamp === this.stamp) return;
    this.stamp = stamp;
    let next: [string, string][];
    try {
      next = this.checked(readTokens(this.file), false);
    } catch (err) {
      console.error(`named tokens refused until the config file reads again: ${(err as Error).message}`);
      next = [];
    }
    const kept = new Map(next);
    const revoked = new Set(this.tokens.filter(([name, token]) => kept.get(name) !== token).map(([name]) => name));
    this.tokens = next;
    if (revoked.size > 0) {
      console.log(`tokens revoked: ${[...revoked].join(", ")}`);
      for (const listener of [...this.revokedListeners]) listener(revoked);
    }
  }
}
