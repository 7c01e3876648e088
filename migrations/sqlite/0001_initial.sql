-- Dungeon Deck, schema version 1: runs, their append-only move log, guild settings, meta.
-- Applied by bot/store.py's runner in one transaction together with `PRAGMA user_version = 1`.

-- One run of one game by one player. `state` is the engine's dump (JSON); `moves` is how many
-- actions were applied and doubles as the compare-and-set version of the row.
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    owner_id    INTEGER NOT NULL,
    guild_id    INTEGER,
    channel_id  INTEGER,
    game        TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    -- Seeds are unsigned 64-bit; SQLite's INTEGER is signed 64-bit, so they are kept as decimal text.
    seed        TEXT    NOT NULL,
    deck        TEXT,                           -- explicit card order (JSON list, top first) or NULL
    kind        TEXT    NOT NULL CHECK (kind IN ('practice', 'daily')),
    day         TEXT,                           -- UTC day YYYY-MM-DD: the daily's, or a past deal's
    status      TEXT    NOT NULL DEFAULT 'playing'
                        CHECK (status IN ('playing', 'over', 'resigned')),
    outcome     TEXT,
    score       TEXT    NOT NULL,               -- JSON list of ints, compared lexicographically
    state       TEXT    NOT NULL,               -- the engine's dump, JSON
    moves       INTEGER NOT NULL DEFAULT 0 CHECK (moves >= 0),
    ranked      INTEGER NOT NULL DEFAULT 0 CHECK (ranked IN (0, 1)),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    finished_at TEXT,
    CHECK (kind = 'practice' OR day IS NOT NULL)
);

-- One daily per player, game, variant and day. The variant is part of the key because every
-- variant has its own daily deal (the daily seed is derived from "<game>/<variant>/<day>") and
-- its own leaderboard: a player may play each of them once.
CREATE UNIQUE INDEX runs_one_daily ON runs (owner_id, game, variant, day) WHERE kind = 'daily';

-- "My unfinished runs", most recently played first.
CREATE INDEX runs_by_owner ON runs (owner_id, status, updated_at);

-- A day's leaderboard.
CREATE INDEX runs_daily_board ON runs (game, variant, day) WHERE kind = 'daily';

-- The append-only log of actions; (run_id, number) makes a move number impossible to use twice.
CREATE TABLE moves (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),   -- 1-based: move n leads to state n
    action TEXT    NOT NULL,
    at     TEXT    NOT NULL,
    PRIMARY KEY (run_id, number)
) WITHOUT ROWID;

CREATE TABLE guild_settings (
    guild_id INTEGER NOT NULL,
    key      TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;

-- Operator data: the generated daily secret, the command-sync hash, ...
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
