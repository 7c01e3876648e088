-- Dungeon Deck, schema version 6 (PostgreSQL): each closed day's par (the solver's best score
-- of its deal) and each replayed run's turning point, both computed once and kept. Mirrors
-- migrations/sqlite/0006_par_turns.sql.

CREATE TABLE pars (
    game       TEXT    NOT NULL,
    variant    TEXT    NOT NULL,
    day        TEXT    NOT NULL,
    rules      TEXT    NOT NULL,
    score      TEXT    NOT NULL,               -- JSON list of ints
    score_key  TEXT    COLLATE "C" NOT NULL,   -- sorts like the list (see runs.score_key)
    score_text TEXT    NOT NULL,
    won        INTEGER NOT NULL CHECK (won IN (0, 1)),
    exact      INTEGER NOT NULL CHECK (exact IN (0, 1)),
    actions    TEXT    NOT NULL,
    nodes      INTEGER NOT NULL,
    seconds    DOUBLE PRECISION NOT NULL,
    solved_at  TEXT    NOT NULL,
    PRIMARY KEY (game, variant, day)
);

CREATE TABLE run_turns (
    run_id      BIGINT  PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    step        INTEGER,                        -- 1-based: the move that cost the most
    text        TEXT    NOT NULL,
    nodes       INTEGER NOT NULL,
    computed_at TEXT    NOT NULL
);
