-- Dungeon Deck, schema version 5: challenges between friends and Tomb series.
--
-- A challenge is one fresh deal that several players each play once, compared on a public
-- card. Its deadline is stored, so closing survives restarts: a card whose deadline passed
-- while the bot was down closes when it comes back. The seed is kept as decimal text, like
-- `runs.seed` (seeds are unsigned 64-bit).
CREATE TABLE challenges (
    id          INTEGER PRIMARY KEY,
    owner_id    INTEGER NOT NULL,
    opponent_id INTEGER,                        -- only this player may accept; NULL: anyone
    guild_id    INTEGER,
    channel_id  INTEGER,                        -- where the card is
    message_id  INTEGER,                        -- the card, once it is posted
    game        TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    seed        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    deadline    TEXT    NOT NULL,
    closed_at   TEXT
);

-- The open challenges whose time is up, found by the closing pass.
CREATE INDEX challenges_due ON challenges (deadline) WHERE closed_at IS NULL;
-- Challenges naming a player as the opponent (/challenges).
CREATE INDEX challenges_opponent ON challenges (opponent_id) WHERE closed_at IS NULL;

-- One run per player per challenge: the key makes a second accept impossible.
-- `unfinished` marks a run that was still being played when the challenge closed.
CREATE TABLE challenge_runs (
    challenge_id INTEGER NOT NULL REFERENCES challenges (id),
    owner_id     INTEGER NOT NULL,
    run_id       INTEGER NOT NULL UNIQUE REFERENCES runs (id),
    unfinished   INTEGER NOT NULL DEFAULT 0 CHECK (unfinished IN (0, 1)),
    PRIMARY KEY (challenge_id, owner_id)
);
CREATE INDEX challenge_runs_owner ON challenge_runs (owner_id, challenge_id);

-- A series: `length` Tomb runs back to back, each on a new deal, their points added up.
CREATE TABLE series (
    id         INTEGER PRIMARY KEY,
    owner_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    variant    TEXT    NOT NULL,
    length     INTEGER NOT NULL CHECK (length IN (3, 5, 10)),
    created_at TEXT    NOT NULL
);
CREATE INDEX series_owner ON series (owner_id, game);

-- The runs of a series in order; (series_id, number) makes a run number impossible to deal twice.
CREATE TABLE series_runs (
    series_id INTEGER NOT NULL REFERENCES series (id),
    number    INTEGER NOT NULL CHECK (number >= 1),
    run_id    INTEGER NOT NULL UNIQUE REFERENCES runs (id),
    PRIMARY KEY (series_id, number)
);
