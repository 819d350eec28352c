/** A database URL the server cannot use says why in words a person can act on (serve stops with it). */
import { describe, expect, it } from "vitest";
import { pgSkipReason, startPgCluster } from "../../test/pg-cluster";
import { PgStore } from "./pg-store";

describe.skipIf(pgSkipReason() !== undefined)("a database that asks for a password", () => {
  it("says the URL gives none, names a wrong one, and opens with the right one", async () => {
    const pg = await startPgCluster({ password: "pg-secret-0123456789" });
    try {
      // As Debian's own clusters answer TCP: SCRAM, and node-postgres' own words were
      // "SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string".
      await expect(PgStore.open(pg.url.replace(/:[^:@/]+@/, "@"))).rejects.toThrow(
        "the database asks for a password and the URL gives none: postgres://USER:PASSWORD@HOST/DB",
      );
      await expect(PgStore.open(pg.url.replace(/:[^:@/]+@/, ":wrong@"))).rejects.toThrow(
        'password authentication failed for user "postgres"',
      );
      const store = await PgStore.open(pg.url);
      await store.close();
    } finally {
      pg.stop();
    }
  }, 60_000);
});
