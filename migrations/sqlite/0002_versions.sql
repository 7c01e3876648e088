-- Dungeon Deck, schema version 2: boards carry a version that only goes up, runs record the
-- rules they were dealt under, and a sortable score makes leaderboards index-only.
--
-- SQLite cannot change a CHECK constraint in place, so `runs` is rebuilt (the runner turns
-- foreign keys off around every migration and runs `PRAGMA foreign_key_check` before it
-- commits, as SQLite's documentation prescribes for table rebuilds).

CREATE TABLE runs_v2 (
    id          INTEGER PRIMARY KEY,
    owner_id    INTEGER NOT NULL,
    guild_id    INTEGER,
    channel_id  INTEGER,
    game        TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    seed        TEXT    NOT NULL,               -- unsigned 64-bit, as decimal text
    deck        TEXT,                           -- explicit card order (JSON list) or NULL
    kind        TEXT    NOT NULL
                        CHECK (kind IN ('practice', 'daily', 'challenge', 'series')),
    day         TEXT,                           -- UTC day YYYY-MM-DD of the daily or past deal
    status      TEXT    NOT NULL DEFAULT 'playing'
                        CHECK (status IN ('playing', 'over', 'resigned')),
    outcome     TEXT,
    score       TEXT    NOT NULL,               -- JSON list of ints, compared lexicographically
    -- The score as text that sorts like the list: each part zero-padded, joined by '.'.
    score_key   TEXT    NOT NULL DEFAULT '',
    state       TEXT    NOT NULL,               -- the engine's dump, JSON
    moves       INTEGER NOT NULL DEFAULT 0 CHECK (moves >= 0),
    -- How many writes the run has had: the board's version, in every button's custom id.
    -- Unlike `moves` it never goes down (undo is a write), so an old board never comes back.
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    ranked      INTEGER NOT NULL DEFAULT 0 CHECK (ranked IN (0, 1)),
    rules       TEXT    NOT NULL,               -- "<game>/<rules version>" the run plays under
    hinted      INTEGER NOT NULL DEFAULT 0 CHECK (hinted IN (0, 1)),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    finished_at TEXT,
    CHECK (kind <> 'daily' OR day IS NOT NULL)
);

INSERT INTO runs_v2 (id, owner_id, guild_id, channel_id, game, variant, seed, deck, kind, day,
                     status, outcome, score, state, moves, version, ranked, rules, created_at,
                     updated_at, finished_at)
SELECT id, owner_id, guild_id, channel_id, game, variant, seed, deck, kind, day, status,
       outcome, score, state, moves, moves, ranked, game || '/1', created_at, updated_at,
       finished_at
FROM runs;

UPDATE runs_v2 SET score_key = (
    SELECT group_concat(printf('%06d', value), '.') FROM (SELECT value FROM json_each(runs_v2.score) ORDER BY key)
);

DROP TABLE runs;
ALTER TABLE runs_v2 RENAME TO runs;

CREATE UNIQUE INDEX runs_one_daily ON runs (owner_id, game, variant, day) WHERE kind = 'daily';
CREATE INDEX runs_by_owner ON runs (owner_id, status, updated_at);
