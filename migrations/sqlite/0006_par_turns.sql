-- Dungeon Deck, schema version 6: each closed day's par (the solver's best score of its deal)
-- and each replayed run's turning point, both computed once and kept.

-- The par of one day's deal of one game and variant: solved once the day closed, with the
-- rules the day was played under. `exact` 0 means the search ran out of budget and `score`
-- is a lower bound ("at least ..."). `actions` is the line that reaches it (JSON list).
CREATE TABLE pars (
    game       TEXT    NOT NULL,
    variant    TEXT    NOT NULL,
    day        TEXT    NOT NULL,
    rules      TEXT    NOT NULL,
    score      TEXT    NOT NULL,               -- JSON list of ints
    score_key  TEXT    NOT NULL,               -- sorts like the list (see runs.score_key)
    score_text TEXT    NOT NULL,
    won        INTEGER NOT NULL CHECK (won IN (0, 1)),
    exact      INTEGER NOT NULL CHECK (exact IN (0, 1)),
    actions    TEXT    NOT NULL,
    nodes      INTEGER NOT NULL,
    seconds    REAL    NOT NULL,
    solved_at  TEXT    NOT NULL,
    PRIMARY KEY (game, variant, day)
);

-- A run's turning point: the move after which its best reachable score fell the most
-- (`step` NULL: it never fell), with the sentence saying so. One row per run, computed the
-- first time someone replays it.
CREATE TABLE run_turns (
    run_id      INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    step        INTEGER,                        -- 1-based: the move that cost the most
    text        TEXT    NOT NULL,
    nodes       INTEGER NOT NULL,
    computed_at TEXT    NOT NULL
);
