-- Dungeon Deck, schema version 2 (PostgreSQL): boards carry a version that only goes up, runs
-- record the rules they were dealt under, and a sortable score makes leaderboards index-only.
-- The same result as migrations/sqlite/0002_versions.sql, which has to rebuild the table;
-- PostgreSQL changes it in place (and its DDL is transactional: all of this, or none).

ALTER TABLE runs DROP CONSTRAINT runs_kind_check;
ALTER TABLE runs ADD CONSTRAINT runs_kind_check
    CHECK (kind IN ('practice', 'daily', 'challenge', 'series'));
ALTER TABLE runs DROP CONSTRAINT runs_day_check;
ALTER TABLE runs ADD CONSTRAINT runs_day_check CHECK (kind <> 'daily' OR day IS NOT NULL);

-- The score as text that sorts like the list: each part zero-padded, joined by '.'. Compared
-- byte by byte (COLLATE "C"), as SQLite compares it, whatever the database's locale.
ALTER TABLE runs ADD COLUMN score_key TEXT COLLATE "C" NOT NULL DEFAULT '';
-- How many writes the run has had: the board's version, in every button's custom id.
ALTER TABLE runs ADD COLUMN version INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0);
ALTER TABLE runs ADD COLUMN rules TEXT;
ALTER TABLE runs ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0 CHECK (hinted IN (0, 1));

UPDATE runs SET
    version = moves,
    rules = game || '/1',
    score_key = coalesce((
        SELECT string_agg(lpad(part, 6, '0'), '.' ORDER BY ord)
        FROM jsonb_array_elements_text(score::jsonb) WITH ORDINALITY AS parts (part, ord)
    ), '');
ALTER TABLE runs ALTER COLUMN rules SET NOT NULL;

-- SQLite's rebuild leaves this index out of version 2; so does this file, to keep them alike.
DROP INDEX runs_daily_board;
