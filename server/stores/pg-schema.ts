/**
 * The team library's tables on PostgreSQL, as forward-only migrations (server/stores/pg-migrate.ts).
 * A transcript is its meta (jsonb) and its JSONL lines exactly as recorded (line 0 the header,
 * several lines to a row since migration 7, each row with an index of its documents' words since
 * migration 8). Each line with text is a search document (lib/features/library/search.ts
 * searchDoc): a row of search_docs with a tsvector and a GIN index once its transcript has ended,
 * found through its row of lines before (server/stores/pg-search.ts, pg-row-index.ts); calls holds
 * the timed responses for latency.
 * Append only: a released version's migration is never edited, a new one is added.
 */
import type { Migration } from "./pg-migrate";
import { reindex } from "./pg-row-index";
import { addTerms, rejoin, revector } from "./pg-search";

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "transcripts, lines, search documents, calls",
    sql: `
      -- Words as the SQLite index's unicode61 tokenizer sees them: lower case, accents removed.
      CREATE EXTENSION IF NOT EXISTS unaccent;
      CREATE TEXT SEARCH CONFIGURATION acp_words (COPY = simple);
      ALTER TEXT SEARCH CONFIGURATION acp_words
        ALTER MAPPING FOR hword, hword_part, word WITH unaccent, simple;
      CREATE TABLE transcripts (
        id text PRIMARY KEY,
        created_at text NOT NULL,
        meta jsonb NOT NULL
      );
      CREATE INDEX transcripts_created ON transcripts (created_at DESC);
      CREATE TABLE transcript_lines (
        transcript_id text NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
        line_no integer NOT NULL,
        line text NOT NULL,
        PRIMARY KEY (transcript_id, line_no)
      );
      CREATE TABLE search_docs (
        transcript_id text NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
        line_no integer NOT NULL,
        seq integer NOT NULL,
        ts double precision NOT NULL,
        dir text,
        kind text NOT NULL,
        method text,
        field text NOT NULL,
        error boolean NOT NULL,
        body text NOT NULL,
        extra text NOT NULL,
        tsv tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('acp_words', body), 'A') || setweight(to_tsvector('acp_words', extra), 'B')
        ) STORED,
        PRIMARY KEY (transcript_id, line_no)
      );
      CREATE INDEX search_docs_tsv ON search_docs USING GIN (tsv);
      CREATE TABLE calls (
        transcript_id text NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
        line_no integer NOT NULL,
        method text NOT NULL,
        dir text NOT NULL,
        ms double precision NOT NULL,
        error boolean NOT NULL,
        PRIMARY KEY (transcript_id, line_no)
      );
    `,
  },
  {
    version: 2,
    name: "instances' leases, each recording's writer",
    sql: `
      -- Each running instance renews its lease; a recording whose writer's lease ran out was
      -- left by a crash (server/stores/pg-store.ts, sweep).
      CREATE TABLE instances (
        id text PRIMARY KEY,
        host text NOT NULL,
        pid integer NOT NULL,
        lease_until timestamptz NOT NULL
      );
      ALTER TABLE transcripts ADD COLUMN writer text;
      CREATE INDEX transcripts_recording ON transcripts (writer) WHERE (meta->>'recording') = 'true';
    `,
  },
  {
    version: 3,
    name: "probe reports",
    sql: `
      -- A probe report as the probe store writes it (lib/contracts/reports.ts), its id first.
      CREATE TABLE probe_reports (
        id text PRIMARY KEY,
        report jsonb NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: "saved comparisons",
    sql: `
      -- A saved comparison as the file store writes it (lib/contracts/compare-format.ts).
      CREATE TABLE comparisons (
        id text PRIMARY KEY,
        record jsonb NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: "search vectors of the file store's words, with pairs of adjacent words; the table of terms",
    sql: `
      -- Vectors made by the program (server/stores/pg-search.ts docVector), not PostgreSQL's
      -- parser: the file store's words, and each pair of adjacent words in the index (a phrase
      -- is found without reading every row that holds its words).
      ALTER TABLE search_docs DROP COLUMN tsv;
      ALTER TABLE search_docs ADD COLUMN tsv tsvector;
      -- Every word indexed (the word being typed is looked for as those it begins), in code
      -- point order whatever the database's collation, so a prefix is a range.
      CREATE TABLE search_terms (term text COLLATE "C" PRIMARY KEY);
      -- The filters' expressions, counted by ANALYZE: unknown, the planner guesses one transcript
      -- passes and reads every document of each that does (0.7 s where 16 ms will do).
      CREATE STATISTICS transcripts_filters
        ON (meta->>'agentName'), (meta->>'profile'), (meta->>'kind'), (meta->>'owner'), (substr(created_at, 1, 10))
        FROM transcripts;
    `,
    then: async (client) => {
      await revector(client);
      await client.query("ALTER TABLE search_docs ALTER COLUMN tsv SET NOT NULL");
      await client.query("CREATE INDEX search_docs_tsv ON search_docs USING GIN (tsv)");
      await client.query("ANALYZE transcripts");
    },
  },
  {
    version: 6,
    name: "streamed chunks' joints: a word or phrase cut by a chunk's edge",
    sql: `
      -- The message each transcript was streaming after its first joint_line lines, and that
      -- message's last words (lib/features/library/joints.ts): the next save's first chunk joins
      -- them, whichever instance makes it.
      ALTER TABLE transcripts
        ADD COLUMN joint_line integer NOT NULL DEFAULT 0,
        ADD COLUMN joint_stream text NOT NULL DEFAULT '',
        ADD COLUMN joint_tail text NOT NULL DEFAULT '';
    `,
    then: rejoin,
  },
  {
    version: 7,
    name: "a save's lines in one row; no foreign keys",
    sql: `
      -- A recording saves about 250 lines a second. A row per line, and every line, search
      -- document and call checking its transcript's key, were half of PostgreSQL's work per frame
      -- (bench/pg-save.ts, docs/benchmarks.md). Now a save's lines are one row (line_no the first
      -- one's number, line_count how many, joined by newlines; a row of about 1 MiB at most) and
      -- the store deletes a transcript's rows itself (PgStore.delete). Rows kept before hold a line each.
      ALTER TABLE transcript_lines RENAME COLUMN line TO lines;
      ALTER TABLE transcript_lines ADD COLUMN line_count integer NOT NULL DEFAULT 1;
      ALTER TABLE transcript_lines DROP CONSTRAINT transcript_lines_transcript_id_fkey;
      ALTER TABLE search_docs DROP CONSTRAINT search_docs_transcript_id_fkey;
      ALTER TABLE calls DROP CONSTRAINT calls_transcript_id_fkey;
    `,
  },
  {
    version: 8,
    name: "rows of lines indexed; a transcript's documents get rows once it has ended",
    sql: `
      -- A row per search document, written as a recording streamed, was three quarters of
      -- PostgreSQL's work per recorded frame (bench/pg-save.ts, docs/benchmarks.md). Now each row
      -- of lines has an index of its documents' words and pairs (terms, as numbers) and where it
      -- starts (the last frame's seq before it, the message being streamed): a recording is
      -- searched through them (pg-row-index.ts), and its documents get their rows once it has
      -- ended (docs_indexed; a save clears it). Those kept before are indexed already.
      ALTER TABLE transcript_lines
        ADD COLUMN terms int4[] NOT NULL DEFAULT '{}',
        ADD COLUMN seq_before integer NOT NULL DEFAULT 0,
        ADD COLUMN joint_stream text NOT NULL DEFAULT '',
        ADD COLUMN joint_tail text NOT NULL DEFAULT '';
      ALTER TABLE transcripts ADD COLUMN docs_indexed boolean NOT NULL DEFAULT false;
      UPDATE transcripts SET docs_indexed = true;
      -- The copiers look for one to index after every copy: the few not indexed, not the library.
      CREATE INDEX transcripts_unindexed ON transcripts (created_at DESC) WHERE NOT docs_indexed;
      -- Except those whose words were cut at a mark (a word written decomposed, as macOS writes
      -- file names, or İ): their documents are made again from their lines, as words are read now.
      UPDATE transcripts t SET docs_indexed = false WHERE EXISTS (
        SELECT 1 FROM search_docs d WHERE d.transcript_id = t.id AND (d.body || d.extra) ~ '[\\u0300-\\u0331\\u0130]');
      -- lz4 compresses a row's lines for less than pglz (about 1 µs a frame); a server built without
      -- it keeps pglz, and so does one before PostgreSQL 14 (no SET COMPRESSION: run, not parsed, here).
      DO $$ BEGIN
        EXECUTE 'ALTER TABLE transcript_lines ALTER COLUMN lines SET COMPRESSION lz4';
      EXCEPTION WHEN feature_not_supported OR syntax_error THEN NULL;
      END $$;
    `,
    then: async (client) => {
      await reindex(client, (terms) => addTerms(client, terms));
      await client.query("CREATE INDEX transcript_lines_terms ON transcript_lines USING GIN (terms)");
    },
  },
];
