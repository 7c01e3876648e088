-- Dungeon Deck, schema version 9 (PostgreSQL): skill ratings from the closed days' global
-- boards. Mirrors migrations/sqlite/0009_ratings.sql.
CREATE TABLE rated_days (
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    day      TEXT    COLLATE "C" NOT NULL,
    players  INTEGER NOT NULL,
    rated_at TEXT    NOT NULL,
    PRIMARY KEY (game, variant, day)
);

CREATE TABLE ratings (
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    owner_id BIGINT  NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    rating   INTEGER NOT NULL,
    days     INTEGER NOT NULL CHECK (days >= 1),
    last_day TEXT    NOT NULL,
    PRIMARY KEY (game, variant, owner_id)
);
CREATE INDEX ratings_board ON ratings (game, variant, rating DESC, owner_id);

CREATE TABLE rating_members (
    guild_id BIGINT  NOT NULL,
    game     TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    owner_id BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, game, variant, owner_id)
);
