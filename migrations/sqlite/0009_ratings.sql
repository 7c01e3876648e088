-- Dungeon Deck, schema version 9: skill ratings from the closed days' global boards.
--
-- Each closed day's global board of a game and variant is one many-player match, rated once
-- and in order (core/ratings.py). `rated_days` holds one row per day rated: its key makes a
-- second rating of a day impossible, and its last day is where the next pass starts.
CREATE TABLE rated_days (
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    day      TEXT    NOT NULL,
    players  INTEGER NOT NULL,
    rated_at TEXT    NOT NULL,
    PRIMARY KEY (game, variant, day)
) WITHOUT ROWID;

-- A player's rating in a game and variant: openskill's mu and sigma, the rating shown
-- (round(1000 + 40 * (mu - 3 * sigma)), what the board orders by), the days rated.
CREATE TABLE ratings (
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    owner_id INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    rating   INTEGER NOT NULL,
    days     INTEGER NOT NULL CHECK (days >= 1),
    last_day TEXT    NOT NULL,
    PRIMARY KEY (game, variant, owner_id)
) WITHOUT ROWID;
-- The rating board (/leaderboard day:rating), everyone's.
CREATE INDEX ratings_board ON ratings (game, variant, rating DESC, owner_id);

-- Who has a rated daily played in which server: a server's rating board lists them.
CREATE TABLE rating_members (
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    owner_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, variant, owner_id)
) WITHOUT ROWID;
